/**
 * The knockout watch's types: what it needs of the sync engine, its options and the alerts it
 * emits; and the context every part of one account's watch shares (knockout-watch.ts wires the
 * parts).
 */
import type { DecimalInput } from '../../shared/money.js';
import type { Logger } from '../../shared/log.js';
import type { Store } from '../store/index.js';
import type { Listener } from '../sync/emitter.js';
import type { SyncEvents, SyncStreamName } from '../sync/events.js';

/** What the watch needs of the sync engine (SyncEngine has it). */
export interface KnockoutSource {
  on<E extends keyof SyncEvents>(event: E, listener: Listener<SyncEvents[E]>): () => void;
  syncNow(...names: SyncStreamName[]): Promise<void>;
}

export interface KnockoutWatchOptions {
  engine: KnockoutSource;
  store: Store;
  accountId: number;
  /** Distances (fractions of the price) that raise a "near" alert; default 0.10, 0.05, 0.02. */
  levels?: readonly DecimalInput[];
  /** How far past a level the distance must recover before it alerts again; default 0.01. */
  margin?: DecimalInput;
  /**
   * How long an unexplained loss may wait for our own SELL (still in flight) or a vanished
   * position for its settlement row, before it is reported as a knockout; default 60 s.
   */
  settleWaitMs?: number;
  /** Local clock (default Date.now). */
  now?: () => number;
  logger?: Logger;
}

export interface KnockoutAlertEvent {
  kind: 'near' | 'knocked_out';
  accountId: number;
  contractId: string;
  outcome: string;
  /** near: the level that fired, a fraction ("0.05"). */
  level?: string;
  /** near: the distance to the knockout on the index price, a fraction with 4 places ("0.0431"). */
  distance?: string;
  /** The knockout price, when known. */
  knockout?: string;
  /** knocked_out: contracts lost, when known. */
  contracts?: number;
  /** How people name the fixture ("ARS v CHE"), when the store knows it. */
  fixture?: string;
  /** One sentence for people. */
  message: string;
  /** Local time the alert was raised. */
  at: number;
  /** The stored alert's id. */
  alertId: number;
}

export interface KnockoutWatchEvents {
  'alert:knockout': KnockoutAlertEvent;
}

/** What every part of one account's watch shares. */
export interface WatchContext {
  readonly store: Store;
  readonly accountId: number;
  /** Local clock. */
  readonly now: () => number;
  readonly logger: Logger;
}
