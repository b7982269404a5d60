/**
 * Request validation with the shared TypeBox schemas, compiled once per route. A failure becomes
 * `ApiError(-1102)` whose message names the field and says what it must be, e.g.
 * `qty: must be a decimal string like "10"`, so a client can fix the request without the docs.
 */
import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { DECIMAL_PATTERN } from '../../shared/money.js';
import { CLIENT_ORDER_ID_PATTERN } from '../../shared/api/schemas.js';
import { ApiError } from '../domain/errors.js';
import { ErrorCodes } from '../../shared/api/errors.js';

type Part = 'body' | 'querystring' | 'params' | 'headers';

interface SchemaError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
}

type JsonSchema = Record<string, unknown>;

/**
 * Fastify validator compiler. Bodies are checked as sent (no coercion: `qty: 10` is refused,
 * it must be the string "10"); query strings and path parameters are converted first, since
 * everything in a URL is text, and get their schema defaults. Header schemas exist for the
 * OpenAPI document only: the signing headers are checked by the authentication step, which
 * answers -1022 rather than -1102.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const part = (httpPart ?? 'body') as Part;
  // No validator at all: Fastify then skips the part instead of copying the headers per request.
  if (part === 'headers') return undefined as unknown as ReturnType<FastifySchemaCompiler<TSchema>>;
  const check = Compile(schema);
  if (part === 'body') {
    return (value: unknown) => {
      if (check.Check(value)) return { value };
      return { error: readableError(schema, 'body', check.Errors(value)) };
    };
  }
  const convert = textConverter(schema as JsonSchema);
  return (value: unknown) => {
    const converted = convert(value);
    if (check.Check(converted)) return { value: converted };
    return { error: readableError(schema, part, check.Errors(converted)) };
  };
};

/**
 * Query strings and path parameters are text: integers are converted when they are written as
 * plain integers ("10", not "1.5" or "1e1"), and absent fields get their schema default. Anything
 * else is left as sent for the schema to refuse, naming the field.
 */
function textConverter(schema: JsonSchema): (value: unknown) => unknown {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const integers = Object.keys(props).filter((k) => props[k]?.type === 'integer');
  const defaults = Object.entries(props).filter(([, p]) => p.default !== undefined);
  return (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    // Converted in place: Fastify parses a fresh object for every request.
    const out = value as Record<string, unknown>;
    for (const k of integers) {
      const v = out[k];
      if (typeof v === 'string' && /^-?\d{1,15}$/.test(v)) out[k] = Number(v);
    }
    for (const [k, p] of defaults) if (out[k] === undefined) out[k] = p.default;
    return out;
  };
}

/** The first useful error of a failed check, as `ApiError(-1102, "<field>: <problem>")`. */
export function readableError(schema: TSchema, part: Part, errors: SchemaError[]): ApiError {
  return new ApiError(ErrorCodes.BAD_PARAMETER, describeErrors(schema, part, errors));
}

export function describeErrors(schema: TSchema, part: Part, errors: SchemaError[]): string {
  // TypeBox reports an unknown property twice (as "schema is false" at the property, and as
  // additionalProperties at its parent); the parent's report is the one that reads well.
  const useful = errors.filter((e) => e.keyword !== 'boolean');
  const error = pickError(useful.length > 0 ? useful : errors);
  if (!error) return `${part}: is malformed`;
  const where = fieldName(error.instancePath);
  switch (error.keyword) {
    case 'required': {
      const missing = (error.params.requiredProperties as string[] | undefined) ?? [];
      const first = missing[0] ?? '?';
      return `${join(where, first, part)}: is required`;
    }
    case 'additionalProperties': {
      const extra = (error.params.additionalProperties as string[] | undefined) ?? [];
      const first = extra[0] ?? '?';
      return `${join(where, first, part)}: is not a known field`;
    }
    case 'boolean':
      return `${where || part}: is not a known field`;
    default: {
      // An error inside one branch of a union is described by the union as a whole.
      const union = error.schemaPath.lastIndexOf('/anyOf/');
      const path = union === -1 ? error.schemaPath : error.schemaPath.slice(0, union);
      const sub = resolve(schema as JsonSchema, path);
      const name = where || (part === 'body' ? 'body' : part);
      if (name === 'body' && error.instancePath === '') return 'body: must be a JSON object';
      return `${name}: must be ${sub ? expectation(sub) : 'valid'}`;
    }
  }
}

/** Prefer a missing or unknown field over a wrong value, and the deepest report of each. */
function pickError(errors: SchemaError[]): SchemaError | undefined {
  const rank = (e: SchemaError) =>
    e.keyword === 'required' ? 0 : e.keyword === 'additionalProperties' ? 1 : 2;
  let best: SchemaError | undefined;
  for (const e of errors) {
    if (!best) {
      best = e;
      continue;
    }
    const r = rank(e) - rank(best);
    if (r < 0 || (r === 0 && e.instancePath.length > best.instancePath.length)) best = e;
  }
  return best;
}

/** "/legs/0/side" -> "legs[0].side". */
export function fieldName(pointer: string): string {
  if (pointer === '') return '';
  let out = '';
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}

function join(parent: string, child: string, part: Part): string {
  if (parent) return `${parent}.${child}`;
  return child || part;
}

function resolve(root: JsonSchema, schemaPath: string): JsonSchema | undefined {
  let node: unknown = root;
  const path = schemaPath.replace(/^#\/?/, '');
  if (path === '') return root;
  for (const raw of path.split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  if (node === null || typeof node !== 'object') return undefined;
  // Errors on a keyword (".../minimum") point into the schema that owns it.
  return node as JsonSchema;
}

/** What a value must look like, in words, from its schema. */
export function expectation(s: JsonSchema): string {
  const anyOf = s.anyOf as JsonSchema[] | undefined;
  if (anyOf) {
    const literals = anyOf.map((a) => a.const);
    if (literals.every((l) => typeof l === 'string')) return `one of ${literals.join(', ')}`;
    const int = anyOf.find((a) => a.type === 'integer');
    if (int && anyOf.every((a) => a.type === 'integer' || a.type === 'string')) {
      return `a whole number from ${String(int.minimum)} to ${String(int.maximum)}, as a number or a string`;
    }
    return anyOf.map((a) => expectation(a)).join(', or ');
  }
  if (s.const !== undefined) return JSON.stringify(s.const);
  const pattern = s.pattern as string | undefined;
  if (pattern === DECIMAL_PATTERN) return 'a decimal string like "10"';
  if (pattern === CLIENT_ORDER_ID_PATTERN) {
    return '1 to 64 characters: letters, digits and _ : . -';
  }
  if (pattern) {
    const words = caseInsensitiveWords(pattern);
    if (words) return `one of ${words.join(', ')} (any letter case)`;
    if (pattern === '^(100|[1-9]?[0-9])(\\.0+)?$') return 'a whole number from 0 to 100';
    return `a string matching ${pattern}`;
  }
  switch (s.type) {
    case 'integer':
    case 'number': {
      const kind = s.type === 'integer' ? 'an integer' : 'a number';
      const min = s.minimum as number | undefined;
      const max = s.maximum as number | undefined;
      if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
      if (min !== undefined) return `${kind} of at least ${min}`;
      if (max !== undefined) return `${kind} of at most ${max}`;
      return kind;
    }
    case 'string': {
      const min = s.minLength as number | undefined;
      const max = s.maxLength as number | undefined;
      if (min !== undefined && max !== undefined) return `a string of ${min} to ${max} characters`;
      if (max !== undefined) return `a string of at most ${max} characters`;
      if (min !== undefined) return `a string of at least ${min} characters`;
      return 'a string';
    }
    case 'boolean':
      return 'true or false';
    case 'array': {
      const min = s.minItems as number | undefined;
      return min ? `an array of at least ${min} item${min === 1 ? '' : 's'}` : 'an array';
    }
    case 'object':
      return 'an object';
    default:
      return 'valid';
  }
}

/** "^([Bb][Uu][Yy]|[Ss][Ee][Ll][Ll])$" -> ["BUY", "SELL"]; undefined for other patterns. */
function caseInsensitiveWords(pattern: string): string[] | undefined {
  const m = /^\^\((.*)\)\$$/.exec(pattern);
  if (!m?.[1]) return undefined;
  const words: string[] = [];
  for (const alt of m[1].split('|')) {
    const word = alt.replace(/\[([A-Z])([a-z])\]/g, '$1');
    if (!/^[A-Z0-9_]+$/.test(word)) return undefined;
    words.push(word);
  }
  return words;
}
