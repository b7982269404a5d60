/** Request bodies built so that a resend is byte-identical to the first send. */
import { canonicalJson } from '../store/index.js';

/**
 * The same value with object keys sorted at every level. Requests are built this way so that
 * the body sent first and the body resent after a restart (read back from the intent, which the
 * store keeps as sorted JSON) are the same bytes.
 */
export function sortedKeys<T>(value: T): T {
  return JSON.parse(canonicalJson(value)) as T;
}
