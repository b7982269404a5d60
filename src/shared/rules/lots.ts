/**
 * A position's lots as the exchange keeps them (docs/pnl.md): a BUY adds a lot, a SELL takes
 * contracts from the oldest lots first. One definition for everything that rebuilds lots from
 * the stored orders (the knockout guard's sale, when the position open now began).
 */

export interface HeldLot {
  contracts: number;
}

/** Takes `contracts` from the oldest of `lots` (in place), dropping the lots it empties. */
export function sellOldest(lots: HeldLot[], contracts: number): void {
  let left = contracts;
  while (left > 0 && lots.length > 0) {
    const lot = lots[0]!;
    const take = Math.min(left, lot.contracts);
    lot.contracts -= take;
    left -= take;
    if (lot.contracts === 0) lots.shift();
  }
}
