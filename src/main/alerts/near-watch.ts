/**
 * "Near" alerts: whenever positions or their index prices are read, each boosted position's
 * distance to its knockout on the index (distance.ts, index-price.ts) is fed to its ladder of
 * levels; a level fires once and re-arms only after the distance recovers past level + margin.
 * A position's ladder is rebuilt from the near alerts stored for it (when first seen, when its
 * knockout changes, after new levels), so a restart repeats none.
 *
 * No near alert is raised on an index price not read yet or read too long ago (stale: the
 * price now may be anywhere), nor at or past the knockout: the exchange has knocked the
 * position out then, and the knocked-out alert says so on the exchange's word (knocked-out.ts).
 */
import type { StoredPosition } from '../store/index.js';
import { initialStates, step, type Ladder, type LevelState } from './distance.js';
import { indexDistance } from './index-price.js';
import { nearKey, nearPrefix, parseNearCount, positionKey } from './keys.js';
import { nearMessage } from './messages.js';
import type { AlertRecorder } from './recorder.js';
import type { WatchContext } from './watch-types.js';

interface Track {
  knockout: string;
  states: LevelState[];
}

export class NearWatch {
  readonly #ctx: WatchContext;
  readonly #alerts: AlertRecorder;
  #ladder: Ladder;
  /** Per position (contract|outcome): the ladder state for its current knockout. */
  readonly #tracks = new Map<string, Track>();

  constructor(ctx: WatchContext, alerts: AlertRecorder, levels: Ladder) {
    this.#ctx = ctx;
    this.#alerts = alerts;
    this.#ladder = levels;
  }

  /** New levels: every position's ladder is rebuilt from its stored alerts on the next check. */
  configure(levels: Ladder): void {
    this.#ladder = levels;
    this.#tracks.clear();
  }

  /**
   * Raises what `positions` (the latest snapshot) crossed on their index prices as stored now;
   * forgets positions no longer in it.
   */
  check(positions: readonly StoredPosition[]): void {
    const { store, accountId, now } = this.#ctx;
    const at = now();
    const live = new Set<string>();
    for (const p of positions) {
      if (!p.boosted || p.knockout === undefined) continue;
      const k = positionKey(p);
      live.add(k);
      let track = this.#tracks.get(k);
      if (track === undefined || track.knockout !== p.knockout) {
        track = { knockout: p.knockout, states: this.#loadStates(p) };
        this.#tracks.set(k, track);
      }
      const reading = indexDistance(store, accountId, p, p.knockout, at);
      if (reading === undefined || !reading.fresh || reading.distance.lte(0)) continue;
      const { distance, index } = reading;
      const i = step(this.#ladder, track.states, distance);
      if (i === null) continue;
      const level = this.#ladder.levels[i]!;
      const state = track.states[i]!;
      const levelText = level.toString();
      const fixture = this.#alerts.fixtureName(p.contractId);
      const message = nearMessage({
        outcome: p.outcome,
        fixture,
        distance,
        level,
        index: index.price,
        knockout: p.knockout,
      });
      this.#alerts.raise(
        {
          kind: 'near',
          contractId: p.contractId,
          outcome: p.outcome,
          level: index.price,
          threshold: p.knockout,
          message,
          dedupKey: nearKey(p.contractId, p.outcome, p.knockout, levelText, state.fired),
        },
        {
          level: levelText,
          distance: distance.toFixed(4),
          knockout: p.knockout,
          contracts: p.contracts,
          ...(fixture !== undefined ? { fixture } : {}),
        },
      );
      state.fired += 1;
    }
    for (const k of [...this.#tracks.keys()]) if (!live.has(k)) this.#tracks.delete(k);
  }

  /** The ladder for a position, from the near alerts stored for it and its knockout. */
  #loadStates(p: StoredPosition): LevelState[] {
    const prefix = nearPrefix(p.contractId, p.outcome, p.knockout!);
    const fired = this.#ladder.levels.map(() => 0);
    for (const a of this.#alerts.stored('near')) {
      this.#ladder.levels.forEach((level, i) => {
        const n = parseNearCount(a.dedupKey, `${prefix}${level.toString()}|`);
        if (n !== null) fired[i] = Math.max(fired[i]!, n + 1);
      });
    }
    return initialStates(fired);
  }
}
