/**
 * The guardians' rules of one store, as every caller uses them: the bridge (feature.ts), the CLI
 * (`guard …`) and the guardian itself (guardian.ts). Arming refuses what cannot work (a
 * read-only key, a rule whose figures make no sense) in words; pausing is global, limits and
 * the slip's defaults per account. See docs/guardians.md.
 *
 * CONTRACT (issue 19): the signatures are fixed; the bodies are the guardian engineer's.
 */
import type {
  ArmGuards,
  DisarmGuards,
  GuardLogPage,
  GuardLogQuery,
  GuardSettings,
  GuardsView,
} from '../../shared/ipc/contract.js';
import type { GuardRule, Store } from '../store/index.js';

export interface GuardBookOptions {
  store: Store;
  /** Local clock (default Date.now). */
  now?: () => number;
}

/** How the guardian sees a rule now, from the store: what GuardsView shows beside the rule. */
export interface GuardViewContext {
  /** The account as the bridge names it (null: paper). */
  bridgeId: string | null;
  /** How often positions are read now, ms: figures older than twice it are stale. */
  pollMs: number;
}

export class GuardBook {
  readonly store: Store;
  readonly now: () => number;

  constructor(opts: GuardBookOptions) {
    this.store = opts.store;
    this.now = opts.now ?? Date.now;
  }

  /** The account's rules with how far each is from firing, the pause, limits and today's use. */
  view(_accountId: number, _ctx: GuardViewContext): GuardsView {
    throw new Error('GuardBook.view: not built yet');
  }

  /**
   * Arms rules on a position (or changes one: `replaces`). Refuses (Refusal) a read-only key,
   * a rule whose fields do not fit its kind, a position not held; logs each `armed`.
   */
  arm(_accountId: number, _input: ArmGuards): GuardRule[] {
    throw new Error('GuardBook.arm: not built yet');
  }

  /** Disarms one rule, or every live rule of a position; logs each `disarmed` with `reason`. */
  disarm(_accountId: number, _input: DisarmGuards, _reason?: string): GuardRule[] {
    throw new Error('GuardBook.disarm: not built yet');
  }

  /** Whether every rule is held, and since when. */
  paused(): { paused: boolean; at: number | null } {
    throw new Error('GuardBook.paused: not built yet');
  }

  setPaused(_paused: boolean): { paused: boolean; at: number | null } {
    throw new Error('GuardBook.setPaused: not built yet');
  }

  settings(_accountId: number): GuardSettings {
    throw new Error('GuardBook.settings: not built yet');
  }

  configure(_accountId: number, _settings: GuardSettings): GuardSettings {
    throw new Error('GuardBook.configure: not built yet');
  }

  /** The guardian log, newest first, as the screen shows it. */
  log(_accountId: number, _bridgeId: string | null, _query: GuardLogQuery): GuardLogPage {
    throw new Error('GuardBook.log: not built yet');
  }
}
