/**
 * Compiled TypeBox validators for every channel's input and output and every event's payload,
 * built once on first use from the contract's schemas.
 */
import { Compile, type Validator } from 'typebox/compile';
import type { TSchema } from 'typebox';
import {
  ipcContract,
  ipcEvents,
  type IpcChannel,
  type IpcEvent,
} from '../../shared/ipc/contract.js';

const cache = new Map<TSchema, Validator>();

function validator(schema: TSchema): Validator {
  let v = cache.get(schema);
  if (!v) {
    v = Compile(schema);
    cache.set(schema, v);
  }
  return v;
}

export interface Verdict {
  ok: boolean;
  /** Where and how the value broke the schema, for a person; names fields, never values. */
  problems: string[];
}

function check(schema: TSchema, value: unknown): Verdict {
  const v = validator(schema);
  if (v.Check(value)) return { ok: true, problems: [] };
  const problems = v
    .Errors(value)
    .filter((e) => e.keyword !== 'boolean')
    .slice(0, 3)
    .map((e) => {
      const field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
      const extra = (e.params as { additionalProperties?: unknown }).additionalProperties;
      if (e.keyword === 'additionalProperties' && Array.isArray(extra)) {
        return `${field || 'it'} has fields the contract does not know (${extra.join(', ')})`;
      }
      return `${field || 'it'} ${e.message}`;
    });
  return { ok: false, problems: problems.length > 0 ? problems : ['it has the wrong shape'] };
}

export function checkInput(channel: IpcChannel, value: unknown): Verdict {
  return check(ipcContract[channel].input, value);
}

export function checkOutput(channel: IpcChannel, value: unknown): Verdict {
  return check(ipcContract[channel].output, value);
}

export function checkEvent(event: IpcEvent, value: unknown): Verdict {
  return check(ipcEvents[event], value);
}
