/**
 * Main's check of a rule before it is armed or kept as a default: the one definition of every
 * kind's figures and ranges (src/shared/rules/guard-kinds.ts), the same the app's form and the
 * CLI use, so nothing is armed here that the dialog would refuse (docs/guardians.md).
 */
import type { GuardSpec } from '../../shared/ipc/contract.js';
import { guardSpecProblem } from '../../shared/rules/guard-kinds.js';
import { Refusal } from '../refusal.js';

/** Refuses (Refusal invalid-input) a spec that is not a rule, in words. */
export function checkSpec(spec: GuardSpec): void {
  const problem = guardSpecProblem(spec);
  if (problem !== null) throw new Refusal('invalid-input', problem);
}
