/** The alert kinds in the order the screens list them (spelled here so TypeBox stays out). */
import type { AlertKind } from '../../../shared/ipc/contract.js';

export const ALERT_KINDS_IN_ORDER = [
  'near',
  'knocked_out',
  'filled',
  'rejected',
  'guard',
] as const satisfies readonly AlertKind[];

/** The kinds about a position that may still be on the positions screen. */
export function isAboutPosition(kind: AlertKind): boolean {
  return kind !== 'rejected';
}
