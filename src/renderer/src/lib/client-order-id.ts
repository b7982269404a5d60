/**
 * The clientOrderId of one bet the user places: `bd-`, the time in base 36, and 12 random hex
 * digits (valid as a clientOrderId, ^[A-Za-z0-9_:.-]{1,64}$). The slip makes one per bet, so
 * every repeat of that bet answers the same order.
 */

/** `n` random bytes. */
export type RandomBytes = (n: number) => ArrayLike<number>;

const webRandom: RandomBytes = (n) => crypto.getRandomValues(new Uint8Array(n));

export function newClientOrderId(now = Date.now(), random: RandomBytes = webRandom): string {
  const hex = Array.from(random(6), (b) => b.toString(16).padStart(2, '0')).join('');
  return `bd-${now.toString(36)}-${hex}`;
}
