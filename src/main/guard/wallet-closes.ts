/**
 * Closes by the guardians of the wallet's other keys (docs/guardians.md, "Where it runs"). Two
 * accounts that read one wallet (store/repos/wallets.ts) hold one position between them, and
 * every account's guardian runs at once: a rule of one key that fires waits while a rule of
 * another key of the wallet is closing that position, and until the positions are read again
 * after that close ended, as it waits for a sell by hand; then it judges what is left. Read
 * from the store, so a close from another process on the same store counts the same.
 */
import type { Store } from '../store/index.js';

/** The local clock of the close's end and of the positions read may differ by this much. */
const CLOCK_MARGIN_MS = 2000;

/** Ended rules of each other key looked at: its closes of the position since the last read. */
const RECENT_RULES = 50;

interface RuleOnPosition {
  contractId: string;
  outcome: string;
}

/**
 * Whether a guardian of another key of `accountId`'s wallet is closing the rule's position, or
 * ended a close of it after the positions were last read (`snapshotAt`).
 */
export function walletClosing(
  store: Store,
  accountId: number,
  rule: RuleOnPosition,
  snapshotAt: number | null,
): boolean {
  const since = snapshotAt ?? 0;
  const onPosition = (r: RuleOnPosition) =>
    r.contractId === rule.contractId && r.outcome === rule.outcome;
  return store.wallets
    .sameWalletAs(accountId)
    .some(
      (other) =>
        store.guards.live(other).some((r) => r.state === 'firing' && onPosition(r)) ||
        store.guards
          .recent(other, RECENT_RULES)
          .some((r) => r.firedAt !== null && onPosition(r) && r.stateAt + CLOCK_MARGIN_MS >= since),
    );
}
