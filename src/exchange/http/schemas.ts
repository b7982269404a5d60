/**
 * Route schemas built from the shared TypeBox schemas: the named response shapes are registered
 * once (`app.addSchema`) and referenced by `$ref`, so the serializer compiles each once and
 * /openapi.yaml lists them as components. Also the signing headers, the rate-limit headers and
 * the error answers each route can give, for the OpenAPI document.
 */
import type { FastifyInstance } from 'fastify';
import Type, { type TSchema } from 'typebox';
import {
  ErrorBody,
  Fixture,
  Health,
  Order,
  Position,
  Quote,
  ServerTime,
  Settlement,
} from '../../shared/api/schemas.js';
import { RECV_WINDOW_MAX, RECV_WINDOW_MIN } from '../../shared/api/signing.js';
import { ErrorCodes, errorInfo } from '../../shared/api/errors.js';

type Json = Record<string, unknown>;

const COMPONENTS: TSchema[] = [
  ErrorBody,
  Health,
  ServerTime,
  Fixture,
  Quote,
  Order,
  Position,
  Settlement,
];

/** Registers the named shapes; call before any route. */
export function registerSharedSchemas(app: FastifyInstance): void {
  for (const s of COMPONENTS) app.addSchema(refify(s, true));
}

/**
 * A deep copy of `schema` in which every nested schema carrying an `$id` is replaced by a
 * `$ref` to it (the root keeps its `$id` when `keepRootId`, otherwise it becomes a `$ref` too).
 */
export function refify(schema: unknown, keepRootId = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => refify(s));
  if (schema === null || typeof schema !== 'object') return schema;
  const s = schema as Json;
  if (!keepRootId && typeof s.$id === 'string') return { $ref: `${s.$id}#` };
  const literals = stringLiterals(s.anyOf);
  if (literals) {
    // One enum rather than a union of constants: the same values, a plainer OpenAPI document,
    // and a serializer that does not have to try each branch.
    const { anyOf: _anyOf, ...rest } = s;
    return { ...rest, type: 'string', enum: literals };
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' && v && typeof v === 'object') {
      const props: Json = {};
      for (const [pk, pv] of Object.entries(v as Json)) props[pk] = refify(pv);
      out[k] = props;
    } else {
      out[k] = refify(v);
    }
  }
  return out;
}

function stringLiterals(anyOf: unknown): string[] | undefined {
  if (!Array.isArray(anyOf) || anyOf.length === 0) return undefined;
  const values: string[] = [];
  for (const branch of anyOf as Json[]) {
    if (typeof branch.const !== 'string') return undefined;
    values.push(branch.const);
  }
  return values;
}

// ------------------------------------------------------------------ headers

/** The four signing headers of docs/api.md 5.2 (documented; checked by the authentication step). */
export const SignedHeaders = Type.Object({
  'x-api-key': Type.String({ description: 'The API key.' }),
  'x-timestamp': Type.String({
    pattern: '^[0-9]{1,16}$',
    description: 'Current time in ms since epoch, on the clock of GET /time.',
  }),
  'x-recv-window': Type.String({
    pattern: '^[0-9]{1,6}$',
    description: `Accepted clock drift in ms, from ${RECV_WINDOW_MIN} to ${RECV_WINDOW_MAX}. Recommended 5000.`,
  }),
  'x-signature': Type.String({
    pattern: '^[0-9a-f]{64}$',
    description:
      'Lower-case hex HMAC-SHA256, keyed with the API secret, over timestamp + apiKey + recvWindow + METHOD + path + payload (raw body, or raw query string without "?").',
  }),
  'x-api-version': Type.Optional(
    Type.String({ description: 'Major version to pin; only 0 exists. Anything else: -1099.' }),
  ),
});

export const VersionHeader = Type.Object({
  'x-api-version': Type.Optional(
    Type.String({ description: 'Major version to pin; only 0 exists. Anything else: -1099.' }),
  ),
});

const versionHeader = {
  'X-Api-Version': { type: 'integer', description: 'The API version answering; always 0.' },
};
const limitHeaders = {
  'X-RateLimit-Limit': { type: 'integer', description: "Size of the endpoint's bucket (burst)." },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in the bucket now.' },
};
const retryAfter = {
  'Retry-After': { type: 'integer', description: 'Seconds to wait before retrying.' },
};

/** A success answer: the schema plus its description and headers. */
export function ok(schema: unknown, description: string, limited: boolean): Json {
  const body = refify(schema) as Json;
  const headers = limited ? { ...versionHeader, ...limitHeaders } : versionHeader;
  // A $ref with siblings is valid JSON Schema 2020-12 and keeps the description beside it.
  return { ...body, description, headers };
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed request (-1102 naming the field), unknown contract (-1121), recv window (-1021), unknown version (-1099), dead quote (-2022).',
  401: 'Authentication refused (-1022): key, signature or signing headers.',
  403: 'Key not allowed: wrong permission or address (-1022); wallet grant revoked (-4002).',
  404: 'Unknown order (-2025) or unknown route (-1102).',
  408: 'The request was not received in time (-1102).',
  409: 'State conflict (-2023, -2024, -2027, -2028, -2029, -2030).',
  410: 'The quote expired (-2031).',
  429: "Rate limit (-1003): the wallet's quota or the per-IP cap. Wait Retry-After seconds.",
  431: 'Request headers too large (-1102).',
  500: 'Internal error (-1000).',
  501: 'Not servable yet (-2026): more than one leg.',
  503: 'Price-feed budget spent (-1003, Retry-After), market closed (-2019), or an upstream failure (-5001 to -5004).',
};

/**
 * Error answers of a route, every one with the `{code, msg}` JSON body. `ownContent` spells the
 * media type out, for routes whose success answer is not JSON (HTML, YAML).
 */
export function errors(
  statuses: readonly number[],
  limited: boolean,
  ownContent = false,
): Record<number, Json> {
  const out: Record<number, Json> = {};
  for (const status of statuses) {
    const headers: Json = { ...versionHeader };
    if (limited) Object.assign(headers, limitHeaders);
    if (status === 429 || status === 503) Object.assign(headers, retryAfter);
    const description = ERROR_TEXT[status] ?? errorInfo(ErrorCodes.INTERNAL).meaning;
    out[status] = ownContent
      ? {
          description,
          headers,
          content: { 'application/json': { schema: { $ref: 'ErrorBody#' } } },
        }
      : { $ref: 'ErrorBody#', description, headers };
  }
  return out;
}

/** The statuses of every public route (IP cap, version, internal error). */
export const COMMON_ERRORS = [400, 429, 500] as const;
/** Added for signed routes. */
export const SIGNED_ERRORS = [400, 401, 403, 429, 500, 503] as const;

/** What a signed route's docs say of it; its input schema (querystring or body) rides along. */
interface SignedDoc {
  summary: string;
  description: string;
  tags: string[];
}

/**
 * The schema of a signed route: its doc and input, the signing headers, its answer (200, or
 * `status`) and the signed errors plus `more`.
 */
export function signedSchema<D extends SignedDoc>(
  doc: D,
  answer: { schema: TSchema; description: string; status?: number; more?: readonly number[] },
) {
  const { summary, description, tags, ...input } = doc;
  return {
    summary,
    description,
    tags,
    headers: SignedHeaders,
    ...input,
    response: {
      [answer.status ?? 200]: ok(answer.schema, answer.description, true),
      ...errors([...SIGNED_ERRORS, ...(answer.more ?? [])], true),
    },
  };
}
