import { randomBytes } from 'node:crypto';
import { expect, test } from 'vitest';
import { REDACTED, scrubText } from '../../../src/main/log/index.js';
import { errorFields, redactPaths, safeFields } from '../../../src/main/log/redact.js';

const secret = randomBytes(32).toString('hex');

test('a sensitive key is redacted at any depth and inside arrays', () => {
  const fields = safeFields({
    secret,
    account: { label: 'Main', apiSecret: secret, nested: { deeper: { password: 'hunter22' } } },
    requests: [{ headers: { 'X-Signature': secret } }, { 'x-api-key': 'k-123' }],
    token: 'abc',
    tokens: 3,
    apiKeyHint: 'ab12',
  });
  expect(fields).toEqual({
    secret: REDACTED,
    account: {
      label: 'Main',
      apiSecret: REDACTED,
      nested: { deeper: { password: REDACTED } },
    },
    requests: [{ headers: REDACTED }, { 'x-api-key': REDACTED }],
    token: REDACTED,
    tokens: 3,
    apiKeyHint: 'ab12',
  });
});

test('an error is kept as its name, message and code, never its other properties', () => {
  const err = Object.assign(new Error('refused', { cause: new Error('socket hang up') }), {
    code: -1022,
    request: { headers: { authorization: `Bearer ${secret}` } },
  });
  expect(safeFields({ err })).toEqual({
    err: {
      name: 'Error',
      message: 'refused',
      code: -1022,
      cause: { name: 'Error', message: 'socket hang up' },
    },
  });
  expect(JSON.stringify(errorFields(err))).not.toContain(secret);
});

test('pino paths name each key at the top, nested and in arrays', () => {
  const paths = redactPaths();
  expect(paths).toContain('secret');
  expect(paths).toContain('*.secret');
  expect(paths).toContain('*[*].secret');
  expect(paths).toContain('*["X-Signature"]');
});

test.each([
  ['a planted secret in a message', `signing with ${secret} failed`],
  ['a JSON field', `{"msg":"x","apiSecret":"${secret}"}`],
  ['a plain-text assignment', 'connecting with password=hunter22 to the exchange'],
  ['a bearer token', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig'],
  ['the host token in an address', 'GET /ipc?token=Zm9vYmFyYmF6cXV4cXV1eA&x=1 refused'],
  ['a base64url token on its own', 'token was 4fJ_s8-QwE2pLxZr9TnVb0cYhM1uKdA3'],
])('the last line of defence removes %s', (_what, line) => {
  const out = scrubText(line);
  expect(out).toContain(REDACTED);
  expect(out).not.toMatch(/hunter22|eyJhbGci|Zm9vYmFy|4fJ_s8/);
  expect(out).not.toContain(secret);
});

test('a concealed value goes wherever it appears, JSON-escaped too', () => {
  const odd = 'pa"ss\\word';
  const line = JSON.stringify({ msg: `it was ${odd}`, other: 'short' });
  expect(scrubText(line, [odd])).toBe(
    JSON.stringify({ msg: `it was ${REDACTED}`, other: 'short' }),
  );
});

test('what is not secret stays readable', () => {
  const line =
    '{"level":40,"time":"2026-11-26T13:00:00.000Z","msg":"a sync pass failed","stream":"orders",' +
    '"clientOrderId":"bd-m5x2k9qa-3f9c0a12b7de","id":"7d444840-9dc0-11d1-b245-5ffdce74fad2",' +
    '"file":"/home/ann/.local/state/betdesk/logs/betdesk.2026-11-26.1.log","tokens":12}';
  expect(scrubText(line)).toBe(line);
});
