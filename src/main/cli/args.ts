/** Parsing a command's options: strict, every value checked, mistakes as UsageError. */
import { parseArgs } from 'node:util';
import { UsageError } from './usage.js';

export type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string }>;

export const GLOBAL_OPTIONS: OptionSpec = {
  account: { type: 'string' },
  'base-url': { type: 'string' },
  db: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export function parseOptions(args: string[], spec: OptionSpec, positionals = 0): Parsed {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...GLOBAL_OPTIONS, ...spec },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw new UsageError(firstSentence((err as Error).message));
  }
  if (parsed.positionals.length > positionals) {
    throw new UsageError(`Unexpected argument "${parsed.positionals[positionals]}".`);
  }
  for (const [name, v] of Object.entries(parsed.values)) {
    if (typeof v === 'string' && v.trim() === '') throw new UsageError(`--${name} needs a value.`);
  }
  return { values: parsed.values, positionals: parsed.positionals };
}

/** parseArgs' messages carry a hint about "--" meant for node itself; keep the first sentence. */
function firstSentence(message: string): string {
  return message.split('. To specify')[0]!.replace(/\.?$/, '.');
}

export function str(p: Parsed, name: string): string | undefined {
  const v = p.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function required(p: Parsed, name: string, what: string): string {
  const v = str(p, name);
  if (v === undefined) throw new UsageError(`--${name} is required (${what}).`);
  return v;
}

/** One of `words`, any letter case. */
export function oneOf<T extends string>(
  p: Parsed,
  name: string,
  words: readonly T[],
): T | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  const up = v.toUpperCase() as T;
  if (!words.includes(up)) {
    throw new UsageError(`--${name} must be one of ${words.join(', ')} (got "${v}").`);
  }
  return up;
}

/** A time: milliseconds since epoch, or an ISO 8601 date or date-time (UTC unless it says). */
export function time(p: Parsed, name: string): number | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  const ms = /^\d{4}-\d{2}-\d{2}/.test(v) ? Date.parse(v) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new UsageError(
      `--${name} must be a date such as 2025-01-31 or 2025-01-31T18:00:00Z, or ms since epoch (got "${v}").`,
    );
  }
  return ms;
}
