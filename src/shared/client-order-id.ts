/**
 * The clientOrderId of one of Betdesk's own orders, made in main (trading, CLI) and in the
 * renderer (the slip makes one per bet, so every repeat of that bet answers the same order).
 * `bd-`, the time in base 36, and 12 random hex digits: unique without coordination, inside the
 * API's pattern (CLIENT_ORDER_ID_PATTERN), and sorting by time, which keeps the store's
 * clientOrderId indexes growing at their end.
 */

/** `n` random bytes. */
export type RandomBytes = (n: number) => ArrayLike<number>;

/** Web Crypto, global in both Node 20 and Chromium. */
const webRandom: RandomBytes = (n) => globalThis.crypto.getRandomValues(new Uint8Array(n));

export function newClientOrderId(
  now: number = Date.now(),
  random: RandomBytes = webRandom,
): string {
  const hex = Array.from(random(6), (b) => b.toString(16).padStart(2, '0')).join('');
  return `bd-${now.toString(36)}-${hex}`;
}
