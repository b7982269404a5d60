/**
 * GET /docs: the human documentation of the sandbox. It states every choice it makes where
 * docs/api.md leaves a point open, the rate limits, the signing rules with a worked example
 * computed by the same code that checks signatures, and the domain's pricing model.
 */
import type { FastifyPluginCallback } from 'fastify';
import { ERRORS } from '../../shared/api/errors.js';
import {
  BODY_LIMIT_BYTES,
  DEFAULT_PRICE_BUDGET_PER_SECOND,
  GROUP_LIMITS,
  IP_LIMIT,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  QUOTE_TTL_MS,
} from '../../shared/api/limits.js';
import { RECV_WINDOW_MAX, RECV_WINDOW_MIN } from '../../shared/api/signing.js';
import { PRICING_DOC } from '../domain/docs.js';
import { signatureHex } from './auth.js';
import { htmlPage, renderMarkdown } from './markdown.js';
import { COMMON_ERRORS, errors, VersionHeader } from './schemas.js';

export interface DocsOptions {
  rateLimits: boolean;
  priceBudget: number;
  controlApi: boolean;
}

/** The worked example of the docs page; a test checks it against the live exchange. */
export const SIGNING_EXAMPLE = {
  apiKey: 'ak_example0000000000000000',
  secret: 'sk_example_secret_do_not_use',
  timestamp: '1767225600000',
  recvWindow: '5000',
  method: 'POST',
  path: '/order/rfq',
  body: '{"legs":[{"contractId":"EPL-2026-ARS-CHE","outcome":"ARS","side":"BUY","market":"DRAW_NO_BET"}],"qty":"10","marketUnit":"BASE"}',
  getPath: '/orders',
  query: 'status=FILLED&limit=10',
} as const;

export function docsMarkdown(opts: DocsOptions): string {
  const ex = SIGNING_EXAMPLE;
  const postPrefix = `${ex.timestamp}${ex.apiKey}${ex.recvWindow}${ex.method}${ex.path}`;
  const postSig = signatureHex(ex.secret, postPrefix, ex.body);
  const getPrefix = `${ex.timestamp}${ex.apiKey}${ex.recvWindow}GET${ex.getPath}`;
  const getSig = signatureHex(ex.secret, getPrefix, ex.query);

  const groupRows = Object.entries(GROUP_LIMITS)
    .map(([group, spec]) => {
      const endpoints = {
        positions: 'GET /positions',
        quotes: 'POST /order/rfq',
        orders: 'POST /order',
        reads: 'GET /order, GET /orders, GET /orders/updates, GET /settlements',
        fixtures: 'GET /fixtures',
      }[group];
      const key = group === 'fixtures' ? 'caller IP' : 'wallet';
      return `| ${group} | ${endpoints} | ${spec.perMinute} | ${spec.burst} | ${key} |`;
    })
    .join('\n');

  const errorRows = [...ERRORS.values()]
    .map((e) => `| ${e.code} | ${e.status} | ${e.name} | ${e.meaning} |`)
    .join('\n');

  return `# Betdesk sandbox exchange

A local exchange that implements the binary-outcome sports betting exchange API in full. This page
documents it, including every choice made where the API leaves a point open.
The machine-readable description is [/openapi.yaml](/openapi.yaml); an interactive console is at
[/swagger](/swagger). Both are served by this process; nothing is fetched from elsewhere.

## Endpoints

| Method | Path | Auth | Rate-limit group | Price-feed cost |
|---|---|---|---|---|
| GET | / | none | per-IP cap only | 0 |
| GET | /health | none | per-IP cap only | 0 |
| GET | /time | none | per-IP cap only | 0 |
| GET | /fixtures | none | fixtures (by IP) | 0 |
| POST | /order/rfq | signed, read | quotes | 2 |
| POST | /order | signed, trade | orders | 1 with rfqId, 2 without |
| GET | /order | signed, read | reads | 0 |
| GET | /orders | signed, read | reads (one call per page) | 0 |
| GET | /orders/updates | signed, read | reads | 0 |
| GET | /positions | signed, read | positions | 28 |
| GET | /settlements | signed, read | reads | 0 |
| GET | /docs | none | per-IP cap only | 0 |
| GET | /swagger | none | per-IP cap only | 0 |
| GET | /openapi.yaml | none | per-IP cap only | 0 |

- \`GET /\` answers a small JSON index: \`{"name","version","docs","openapi","swagger"}\`. It is not
  listed in the OpenAPI document.
- \`GET /health\` answers \`{"status":"ok","version":0}\`.
- \`GET /time\` answers \`{"serverTime": <ms since epoch>}\`: the exchange clock used for X-Timestamp,
  quote expiry, \`deadline\`, cursors and rate-limit refill. It is real time plus every advance
  made through the control API.
- Any other path answers **404** with \`{"code":-1102,"msg":"No endpoint ..."}\`. A wrong method on a
  known path is also a 404 of that shape.

## Versioning

Every answer carries \`X-Api-Version: 0\`. A request may send \`X-Api-Version\`; absent or \`0\` is
accepted, anything else answers 400 with -1099.

## Signing

Signed endpoints need four headers:

| Header | Value |
|---|---|
| X-Api-Key | The API key. |
| X-Timestamp | Milliseconds since epoch on the exchange clock (see GET /time). |
| X-Recv-Window | Accepted drift in ms, ${RECV_WINDOW_MIN} to ${RECV_WINDOW_MAX}; 5000 is recommended. |
| X-Signature | Lower-case hex HMAC-SHA256 of the string below, keyed with the API secret. |

The signed string is \`timestamp + apiKey + recvWindow + METHOD + path + payload\`, with no
separators. \`path\` is the request path as sent, without its query string (for POST too).
\`payload\` is the raw body bytes as sent when the request has a body, otherwise the raw query
string as sent, without the \`?\`. Build the query string once and send exactly the bytes you signed.

### Worked example (computed by the exchange's own code)

Key \`${ex.apiKey}\`, secret \`${ex.secret}\`, timestamp \`${ex.timestamp}\`, recv window \`${ex.recvWindow}\`.

A quote request, \`POST ${ex.path}\` with this body (exactly these bytes, no trailing newline):

\`\`\`
${ex.body}
\`\`\`

Signed string:

\`\`\`
${postPrefix}${ex.body}
\`\`\`

X-Signature:

\`\`\`
${postSig}
\`\`\`

A read, \`GET ${ex.getPath}?${ex.query}\`. Signed string and X-Signature:

\`\`\`
${getPrefix}${ex.query}
${getSig}
\`\`\`

In Node.js: \`crypto.createHmac('sha256', secret).update(signedString).digest('hex')\`.

### How the exchange checks a signed request

In this order; the first failure answers:

1. The four headers are present and well formed: X-Timestamp digits, X-Recv-Window an integer from
   ${RECV_WINDOW_MIN} to ${RECV_WINDOW_MAX}, X-Signature 64 lower-case hex digits. Otherwise **401 -1022**
   naming the header (a recv window out of range is -1022 too: it is a malformed signing header).
2. The key exists. Otherwise **401 -1022**.
3. |exchange clock − X-Timestamp| ≤ X-Recv-Window, in both directions. Otherwise **400 -1021**,
   saying how far off the timestamp is.
4. The signature matches. Otherwise **401 -1022**.
5. The signature has not been accepted before. Each signature is accepted exactly once, even when
   the request it belonged to then failed; a replay answers **401 -1022**. The exchange remembers a
   signature until its timestamp leaves its recv window, after which step 3 refuses it anyway.
6. The key has not expired (\`expiresAt\`, exchange clock). Otherwise **401 -1022** "the key expired".
7. The caller's address is allowed by the key's \`ipRestrictions\` (addresses or CIDR blocks,
   IPv4 or IPv6; an IPv4 caller on an IPv6 socket is matched as IPv4). Otherwise **403 -1022**.
8. The key's permission covers the endpoint: \`read\` keys may use every signed endpoint except
   POST /order; \`trade\` keys may use all of them. Otherwise **403 -1022**.
9. On POST /order, a trade key whose wallet grant was revoked answers **403 -4002** (after the
   rate limits, so such orders consume quota).

A GET request's body, if any, is ignored and not signed: a GET signs its query string.

## Request bodies and malformed input

- POST bodies are JSON sent with \`Content-Type: application/json\` (charset, if given, UTF-8).
  Another content type, or a body that is not valid JSON, answers **400 -1102** after the
  signature is checked (the signature covers the raw bytes whatever they are).
- Bodies are read up to ${BODY_LIMIT_BYTES / (1024 * 1024)} MB; the rest is read and dropped, not rejected. An oversized body
  therefore fails its signature (-1022) or parses as broken JSON (-1102).
- Every field is checked against the schema: a missing, unknown or malformed field answers
  **400 -1102** with a message naming the field and what it must be, e.g.
  \`qty: must be a decimal string like "10"\`. Numbers in bodies must be JSON numbers where the
  schema says integer, and decimal strings where it says string; nothing is coerced. Query
  parameters are text and are converted to integers where the schema says so.
- More than one leg answers **501 -2026** before any business rule is looked at.
- Malformed HTTP (a broken request line or headers) answers 400 -1102; headers over 16 KB 431
  -1102; a request not received within 30 s 408 -1102. The connection is then closed.
- Nothing a client sends produces a 5xx; a 500 (-1000) means a fault of the exchange.

## Rate limits

${opts.rateLimits ? 'On in this process.' : '**Off in this process (started with --no-rate-limits).**'} A request passes three checks, in this order:

1. **Per-IP cap** across the whole API, signed or not (including /, /health, /time, /docs and the
   Swagger assets): ${IP_LIMIT.perSecond} requests per second, burst ${IP_LIMIT.burst}. Exhausted: **429 -1003**. The
   control API (/sandbox/*) is exempt.
2. **The bucket of the endpoint's group**, refilled continuously at per-minute ÷ 60 per second.
   Exhausted: **429 -1003**.
3. **The shared price-feed budget**, for endpoints that need live prices: ${opts.priceBudget} cost units per
   second (default ${DEFAULT_PRICE_BUDGET_PER_SECOND}, set with \`--price-budget N\`), of which one second's worth can be
   spent at once. Exhausted: **503 -1003**. A request costing more than the whole budget can
   never pass.

| Group | Endpoints | Per minute | Burst | Keyed by |
|---|---|---|---|---|
${groupRows}

- Refusals by a limit carry \`Retry-After\` in whole seconds (rounded up, at least 1).
- Every answer of a rate-limited endpoint (fixtures and the signed ones) carries
  \`X-RateLimit-Limit\` (the group's burst) and \`X-RateLimit-Remaining\` (whole requests left in
  that bucket). When a request is refused before its wallet is known (authentication failed or the
  per-IP cap), both show the bucket size: nothing was taken from any wallet.
- A request spends its quota as soon as it passes the bucket, whatever happens next: an order
  refused by a business rule (for example -2030), a malformed body, or a 503 from the price-feed
  budget still costs one request. A request refused by a bucket takes nothing from it.
- Requests that fail authentication are not charged to any wallet (only to the per-IP cap).
- Buckets refill on the exchange clock, so advancing the clock refills them.

## Paging

\`limit\` defaults to ${PAGE_LIMIT_DEFAULT}, at most ${PAGE_LIMIT_MAX}; \`offset\` defaults to 0. Filters apply before paging, \`total\`
counts the matches, an offset past the end gives an empty page. GET /fixtures also accepts
\`league\` (exact, case insensitive) and \`team\` (home or away abbreviation) filters.

## Orders, quotes and events

- A quote lives ${QUOTE_TTL_MS / 1000} s on the exchange clock; the sandbox adds \`expiresAt\` to the quote.
- Order records carry the API's fields plus \`orderType\`, \`marketUnit\`, \`qty\`, \`boost\`,
  \`rfqId\`, \`proceeds\` (a filled SELL), \`createdAt\` and \`updatedAt\` (what /orders/updates follows).
- An accepted order is \`SUBMITTED\`, then after the block time (\`--block-ms\`, default 1000 ms)
  \`FILLED\`, \`CANCELED\` (a FOK that can no longer fill) or \`REJECTED\` (with \`error\`).
  The sandbox does not use \`CLAIMED\`, \`OPEN\`, \`EXPIRED\` or \`FAILED\` as resting states.
- There is no push channel: poll GET /order and GET /orders/updates.

## Error codes and HTTP statuses

Every error answers \`{"code": <integer>, "msg": <string>}\`. The statuses the API does not fix are
the sandbox's choice:

| Code | HTTP | Name | Meaning |
|---|---|---|---|
${errorRows}

-1003 answers 429 for a quota or the per-IP cap and 503 for the price-feed budget. -1022 answers
401, or 403 when an authenticated key is not allowed (permission or address). -1102 answers 400,
or 404 for an unknown route.

## Key management

The API does not describe its key management endpoints; in the sandbox, keys are made through the
control API below. Its authentication failures use -1023 (401 without a token, 403 with a wrong
one). A key's secret is returned once, at creation.

## Control API (sandbox only)

${opts.controlApi ? 'Enabled in this process' : 'Disabled in this process (start with `--admin-token T` to enable it; until then every /sandbox path answers 404)'}. Every call carries
\`Authorization: Bearer <T>\`; bodies are JSON. It is not part of the public API and not in the
OpenAPI document.

| Call | Effect |
|---|---|
| POST /sandbox/wallets | 201 \`{"wallet"}\` |
| POST /sandbox/keys \`{"wallet","permission","expiresAt"?,"ipRestrictions"?}\` | 201 \`{"apiKey","secret","permission","expiresAt"}\`; a trade key needs expiresAt (400 -1102) |
| POST /sandbox/keys/{apiKey}/revoke-grant | 204; orders with the key then fail with -4002 |
| POST /sandbox/fixtures \`{"homeTeam","awayTeam","league","startsAt"?}\` | 201 with the fixture |
| POST /sandbox/fixtures/{contractId}/price \`{"outcome","indexPrice"}\` | 200 \`{"knockedOut"}\` |
| POST /sandbox/fixtures/{contractId}/close | 200 with the fixture; betting closed (-2019) |
| POST /sandbox/fixtures/{contractId}/kickoff \`{"startsAt"}\` | 200 with the fixture; kick-off moved |
| POST /sandbox/fixtures/{contractId}/resolve \`{"winner"}\` | 200 with the fixture; positions settle |
| POST /sandbox/clock \`{"advanceMs"}\` | 200 \`{"serverTime"}\` |
| POST /sandbox/faults \`{"route","mode","count","ms"?,"code"?}\` | 200; the next \`count\` requests to \`route\` ("METHOD /path") get the fault |
| DELETE /sandbox/faults | 204; clears every fault |

Fault modes: \`latency\` (answer after \`ms\`; on POST /order the clientOrderId is claimed meanwhile,
so a concurrent duplicate gets -2028), \`error\` (answer with \`code\` and its HTTP status from the
table above; -1003 answers 429 with Retry-After: 1), \`drop\` (apply the request, then close the
connection without answering), \`revert\` (POST /order only: 202, then the order ends REJECTED
with -2024) and \`congested\` (POST /order only: 202 carrying error -5004; the order stands).
A fault is drawn by a request that has passed authentication, rate limits and validation.

## Pricing model and the exchange's other choices

${PRICING_DOC.trim() === '' ? 'See the pricing model of docs/sandbox.md in the Betdesk repository.' : nestHeadings(PRICING_DOC)}
`;
}

/** The domain's notes are a document of their own: nest their headings under this page's. */
function nestHeadings(md: string): string {
  return md
    .split('\n')
    .map((line) => {
      const m = /^(#{1,4})\s+(.*)$/.exec(line);
      if (!m) return line;
      // Its title duplicates the section heading above it.
      if (m[1] === '#') return '';
      return `${'#'.repeat(Math.min(6, (m[1] ?? '').length + 1))} ${m[2] ?? ''}`;
    })
    .join('\n');
}

export const docsRoutes: FastifyPluginCallback<DocsOptions> = (app, opts, done) => {
  // Rendered on the first request, not at start-up (see markdown.ts).
  let page: Promise<string> | undefined;
  const render = async () =>
    htmlPage('Betdesk sandbox exchange', await renderMarkdown(docsMarkdown(opts)));
  app.get(
    '/docs',
    {
      config: { routeKey: 'GET /docs' },
      schema: {
        summary: 'Human documentation',
        description:
          'HTML: signing with a worked example, the pricing model, rate limits and every choice the API leaves open.',
        tags: ['system'],
        headers: VersionHeader,
        produces: ['text/html'],
        response: {
          200: { type: 'string', description: 'The documentation page.' },
          ...errors(COMMON_ERRORS, false, true),
        },
      },
    },
    async (_request, reply) => {
      reply.type('text/html; charset=utf-8');
      page ??= render().catch((err: unknown) => {
        page = undefined;
        throw err;
      });
      return page;
    },
  );
  done();
};
