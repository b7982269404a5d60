/**
 * Every answer body is checked against the shared schema of its endpoint before the app sees it,
 * so a malformed answer becomes a ProtocolError here instead of a wrong number on screen.
 */
import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';

export interface BodyCheck<T> {
  /** The body typed, or a short description of what is wrong with it. */
  check(value: unknown): { ok: true; value: T } | { ok: false; problem: string };
}

export function bodyCheck<T>(schema: TSchema): BodyCheck<T> {
  let validator: Validator | undefined;
  return {
    check(value) {
      // Compiled on first use: startup stays fast and unused endpoints cost nothing.
      validator ??= Compile(schema);
      if (validator.Check(value)) return { ok: true, value: value as T };
      const problems = validator
        .Errors(value)
        .slice(0, 3)
        .map((e) => `${e.instancePath === '' ? 'the body' : e.instancePath} ${e.message}`);
      return { ok: false, problem: problems.join('; ') || 'the body does not match its schema' };
    },
  };
}
