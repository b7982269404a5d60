/**
 * Keeping secrets out of the log, in three layers: the fields a caller logs are walked and every
 * sensitive key's value replaced (at any depth, errors reduced to message and code); pino's own
 * `redact` does the same for its paths; and every line's final text is scrubbed of the values the
 * log was told to conceal and of anything shaped like a secret, a bearer token or a `token=`.
 */

export const REDACTED = '[redacted]';

/**
 * Keys whose values are never written, compared without case, `-` or `_`: the API secret, the
 * signing headers of docs/api.md 5.2 (X-Api-Key, X-Signature), the browser host's token, and the
 * usual names of credentials.
 */
const SENSITIVE_KEYS: ReadonlySet<string> = new Set([
  'secret',
  'apisecret',
  'signature',
  'xsignature',
  'apikey',
  'xapikey',
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'token',
  'accesstoken',
  'password',
  'passphrase',
  'credentials',
  'headers',
]);

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''));
}

/** The spellings the app's own code uses, for pino's `redact` (which matches exact names). */
const PINO_KEYS = [
  'secret',
  'apiSecret',
  'signature',
  'apiKey',
  'authorization',
  'cookie',
  'token',
  'password',
  'credentials',
  'headers',
  'X-Signature',
  'x-signature',
  'X-Api-Key',
  'x-api-key',
];

/** pino `redact` paths: each key at the top, nested (wildcards) and inside arrays. */
export function redactPaths(): string[] {
  const paths: string[] = [];
  for (const key of PINO_KEYS) {
    const k = /^\w+$/.test(key) ? `.${key}` : `["${key}"]`;
    const top = k.startsWith('.') ? k.slice(1) : k;
    paths.push(top, `*${k}`, `*.*${k}`, `*[*]${k}`, `*.*[*]${k}`);
  }
  return paths;
}

const MAX_DEPTH = 6;

/**
 * The fields as they may be written: sensitive keys' values replaced, errors reduced to their
 * name, message and code (never their request, headers or other properties), deep structures cut.
 */
export function safeFields(fields: Record<string, unknown>): Record<string, unknown> {
  return safeValue(fields, 0) as Record<string, unknown>;
}

function safeValue(value: unknown, depth: number): unknown {
  if (value instanceof Error) return errorFields(value);
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'bigint' ? value.toString() : value;
  }
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.map((v) => safeValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = isSensitiveKey(key) ? REDACTED : safeValue(v, depth + 1);
  }
  return out;
}

/** An error as the log keeps it: what went wrong and its code, and the same of its cause. */
export function errorFields(err: Error, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = { name: err.name, message: err.message };
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') out['code'] = code;
  if (err.cause instanceof Error && depth < 3) out['cause'] = errorFields(err.cause, depth + 1);
  return out;
}

/** `Bearer abc…` / `Basic abc…`, as an Authorization header or a message would carry it. */
const AUTH_SCHEME = /\b(Bearer|Basic)(\s+)[A-Za-z0-9._~+/=-]+/gi;
/** A secret in a query string or a URL: the host's `?token=`, `&signature=`, … */
const QUERY_SECRET =
  /([?&](?:token|access_token|secret|api_?secret|signature|password|api_?key)=)[^&\s"'#\\]+/gi;
/** `secret: abc`, `"secret":"abc"`, `password=abc`: a sensitive name with its value in text. */
const NAMED_SECRET =
  /((?:\\?["'])?\b(?:api[_-]?secret|secret|password|passphrase|signature|x-signature|x-api-key|authorization|token)(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?)(?!\[redacted\])[^\s"'\\,;&}]+/gi;
/**
 * A long run of base64url / hex characters with letters and digits: what API secrets, signatures
 * and tokens look like (the sandbox's secrets are 64 hex digits, the host's token 32 base64url).
 */
const SECRET_SHAPED = /(?<![A-Za-z0-9_+-])[A-Za-z0-9_+-]{32,}={0,2}(?![A-Za-z0-9_+=-])/g;

/** Ids made of short dash-separated parts (UUIDs, client order ids) are not secrets. */
function looksLikeSecret(run: string): boolean {
  if (!/[0-9]/.test(run) || !/[A-Za-z]/.test(run)) return false;
  return run.split('-').some((part) => part.length >= 16);
}

/**
 * The text with every concealed value and everything shaped like a secret replaced by
 * `[redacted]`. Works on a JSON line as on plain text (a value is also looked for JSON-escaped).
 */
export function scrubText(text: string, concealed: Iterable<string> = []): string {
  let out = text;
  for (const value of concealed) {
    out = out.split(value).join(REDACTED);
    const escaped = JSON.stringify(value).slice(1, -1);
    if (escaped !== value) out = out.split(escaped).join(REDACTED);
  }
  return out
    .replace(AUTH_SCHEME, `$1$2${REDACTED}`)
    .replace(QUERY_SECRET, `$1${REDACTED}`)
    .replace(NAMED_SECRET, `$1${REDACTED}`)
    .replace(SECRET_SHAPED, (run) => (looksLikeSecret(run) ? REDACTED : run));
}
