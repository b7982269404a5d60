/**
 * Signatures already accepted, so each is accepted exactly once (docs/api.md 5.2, rule 2). An
 * entry is needed only while its timestamp is still inside its recv window: after that the request fails
 * the timestamp check anyway. Entries are filed by the second in which they lapse and whole
 * seconds are dropped as the exchange clock passes them, so a check is O(1) and the cache holds
 * at most one recv window (60 s at most) of traffic.
 */
export class ReplayCache {
  private readonly seen = new Map<string, number>();
  private readonly bySecond = new Map<number, string[]>();
  /** Every second before this one has been dropped. */
  private sweptTo = -1;

  /**
   * Records `signature` as used until `lapsesAt` (exchange ms). Returns false when it was
   * already recorded and has not lapsed, i.e. the request is a replay.
   */
  claim(signature: string, lapsesAt: number, now: number): boolean {
    this.sweep(now);
    const known = this.seen.get(signature);
    if (known !== undefined && known >= now) return false;
    this.seen.set(signature, lapsesAt);
    const second = Math.floor(lapsesAt / 1000);
    const list = this.bySecond.get(second);
    if (list) list.push(signature);
    else this.bySecond.set(second, [signature]);
    return true;
  }

  get size(): number {
    return this.seen.size;
  }

  private sweep(now: number): void {
    const current = Math.floor(now / 1000);
    if (this.sweptTo === -1) this.sweptTo = current;
    if (current <= this.sweptTo) return;
    if (current - this.sweptTo > this.bySecond.size) {
      // The clock jumped (or was idle): visit the filed seconds rather than every second passed.
      for (const second of [...this.bySecond.keys()]) {
        if (second < current) this.drop(second);
      }
    } else {
      for (let s = this.sweptTo; s < current; s++) this.drop(s);
    }
    this.sweptTo = current;
  }

  private drop(second: number): void {
    const list = this.bySecond.get(second);
    if (!list) return;
    this.bySecond.delete(second);
    for (const sig of list) {
      const lapsesAt = this.seen.get(sig);
      // A signature re-claimed after lapsing is filed again under a later second.
      if (lapsesAt !== undefined && Math.floor(lapsesAt / 1000) === second) this.seen.delete(sig);
    }
  }
}
