/**
 * Randomness: a seeded PRNG for the generated fixtures (same seed, same fixtures), and fast
 * random hex for ids that need only be unique (quote ids, order ids, transaction hashes).
 */
import { randomFillSync } from 'node:crypto';

export { mulberry32 } from '../../shared/random.js';

/** An integer in [0, n) from a PRNG. */
export function pick(rand: () => number, n: number): number {
  return Math.floor(rand() * n);
}

const POOL_SIZE = 8192;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

/** `bytes` random bytes as lower-case hex (2 × bytes characters), from a refilled pool. */
export function randomHex(bytes: number): string {
  if (bytes > POOL_SIZE) throw new RangeError('randomHex: too many bytes');
  if (poolOffset + bytes > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}
