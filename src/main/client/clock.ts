/**
 * The exchange's clock as seen from here. Signed requests carry the exchange's time, not ours:
 * the offset is estimated the NTP way from a few GET /time round trips, keeping the sample with
 * the shortest round trip (the one whose midpoint is least uncertain).
 */

export interface TimeSample {
  /** Local time when the request left. */
  sentAt: number;
  /** Local time when the answer arrived. */
  receivedAt: number;
  /** The exchange's time in the answer. */
  serverTime: number;
}

/** offset = serverTime - (sentAt + rtt / 2) of the sample with the shortest round trip. */
export function estimateOffset(samples: readonly TimeSample[]): {
  offsetMs: number;
  rttMs: number;
} {
  let best: TimeSample | undefined;
  for (const s of samples) {
    if (!best || s.receivedAt - s.sentAt < best.receivedAt - best.sentAt) best = s;
  }
  if (!best) throw new RangeError('estimateOffset needs at least one sample');
  const rtt = Math.max(0, best.receivedAt - best.sentAt);
  return { offsetMs: Math.round(best.serverTime - (best.sentAt + rtt / 2)), rttMs: rtt };
}

export class ServerClock {
  private offset = 0;
  private syncedAt: number | undefined;
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly localNow: () => number,
    private readonly readServerTime: () => Promise<number>,
    private readonly opts: { samples: number; resyncMs: number },
    private readonly onSynced: (offsetMs: number, rttMs: number) => void = () => {},
  ) {}

  get offsetMs(): number {
    return this.offset;
  }

  get synced(): boolean {
    return this.syncedAt !== undefined;
  }

  /** The exchange's time now, as best known. */
  now(): number {
    return Math.round(this.localNow() + this.offset);
  }

  /** Syncs when never synced or when the last sync is older than the re-sync period. */
  async ensureFresh(): Promise<void> {
    if (this.syncedAt === undefined || this.localNow() - this.syncedAt >= this.opts.resyncMs) {
      await this.sync();
    }
  }

  /** Measures the offset again; concurrent callers share one measurement. */
  sync(): Promise<void> {
    this.inFlight ??= this.measure().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async measure(): Promise<void> {
    const samples: TimeSample[] = [];
    for (let i = 0; i < this.opts.samples; i++) {
      try {
        const sentAt = this.localNow();
        const serverTime = await this.readServerTime();
        samples.push({ sentAt, receivedAt: this.localNow(), serverTime });
      } catch (err) {
        // Unreachable from the start: say so now rather than after every sample has timed out.
        if (samples.length === 0) throw err;
        break;
      }
    }
    const { offsetMs, rttMs } = estimateOffset(samples);
    this.offset = offsetMs;
    this.syncedAt = this.localNow();
    this.onSynced(offsetMs, rttMs);
  }
}
