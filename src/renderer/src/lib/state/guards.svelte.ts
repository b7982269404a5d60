/**
 * The guardians as the renderer holds them (docs/guardians.md): main's GuardsView (every rule of
 * the account with how far it is from firing, the pause, the daily limits and today's use),
 * kept current by `guards:changed`, and the account's settings (limits, the rules the slip
 * offers). Arming, changing, disarming and pausing go to main, which answers with the new view.
 */
import type {
  ArmGuards,
  DisarmGuards,
  GuardCheck,
  GuardLimits,
  GuardRuleView,
  GuardSettings,
  GuardSpec,
  GuardsView,
} from '../../../../shared/ipc/contract.js';
import { messageOf, type Bridge } from '../bridge.js';
import { isShownOnRow } from '../guard-words.js';
import { Loader } from './loader.svelte.js';

/** Why nothing can be armed on a read-only key, in words (GuardsView.readOnly). */
export const READ_ONLY_WORDS =
  'This account’s API key may only read: a guardian could not send its close, so none can be armed.';

export class GuardsState {
  /** The account's rules and the guardians' switches; null until main first answers. */
  view = $state.raw<GuardsView | null>(null);
  readonly reads = new Loader();
  settings = $state.raw<GuardSettings | null>(null);
  settingsError = $state<string | null>(null);
  settingsNotice = $state<string | null>(null);
  /** A change (arm, disarm, pause, settings) is on its way to main. */
  busy = $state(false);
  /** Why the last arm, disarm or pause failed, in main's words; null once one succeeds. */
  error = $state<string | null>(null);
  readonly paused: boolean = $derived(this.view?.paused ?? false);
  readonly readOnly: boolean = $derived(this.view?.readOnly ?? false);
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  /** Follows `guards:changed`; returns the function that stops. */
  start(): () => void {
    const stop = this.#bridge.on('guards:changed', (view) => {
      // A push is newer than any read still on its way.
      this.reads.cancel();
      this.view = view;
    });
    void this.load();
    void this.loadSettings();
    return stop;
  }

  async load(): Promise<void> {
    await this.reads.run(
      () => this.#bridge.invoke('guards:list', {}),
      (view) => (this.view = view),
    );
  }

  async loadSettings(): Promise<void> {
    try {
      this.settings = await this.#bridge.invoke('guards:settings', {});
      this.settingsError = null;
    } catch (err) {
      this.settingsError = messageOf(err);
    }
  }

  /**
   * The rules a position's row shows: armed, closing, or failed. `heldSince` (the row's): a
   * rule that failed before the position open now began was of an earlier one, and is left to
   * the Guardians screen.
   */
  rulesFor(contractId: string, outcome: string, heldSince: number | null = null): GuardRuleView[] {
    return (this.view?.rules ?? []).filter(
      (r) =>
        r.contractId === contractId &&
        r.outcome === outcome &&
        isShownOnRow(r) &&
        !(r.state === 'failed' && heldSince !== null && r.stateAt < heldSince),
    );
  }

  /** Arms rules on a position; with `replaces`, changes that rule. True when main took it. */
  arm(input: ArmGuards): Promise<boolean> {
    return this.#change(() => this.#bridge.invoke('guards:arm', input));
  }

  /**
   * What arming `input` would do on the figures now (main judges it as the guardian will):
   * null when main could not say (the dialog then arms without fireNow, and main refuses a
   * rule that would fire at once).
   */
  async check(input: ArmGuards): Promise<GuardCheck | null> {
    try {
      return await this.#bridge.invoke('guards:check', input);
    } catch {
      return null;
    }
  }

  /** Disarms one rule (`ruleId`) or every rule of a position. */
  disarm(input: DisarmGuards): Promise<boolean> {
    return this.#change(() => this.#bridge.invoke('guards:disarm', input));
  }

  setPaused(paused: boolean): Promise<boolean> {
    return this.#change(() => this.#bridge.invoke('guards:pause', { paused }));
  }

  /** Saves the daily limits, keeping the default rules. */
  setLimits(limits: GuardLimits): Promise<boolean> {
    const defaults = this.settings?.defaults ?? [];
    return this.configure({ limits, defaults });
  }

  /** Saves the default rules the slip offers, keeping the limits. */
  setDefaults(defaults: GuardSpec[]): Promise<boolean> {
    const limits = this.settings?.limits ?? this.view?.limits;
    if (!limits) return Promise.resolve(false);
    return this.configure({ limits, defaults });
  }

  /** Saves the account's limits and default rules. */
  async configure(settings: GuardSettings): Promise<boolean> {
    this.busy = true;
    try {
      this.settings = await this.#bridge.invoke('guards:configure', settings);
      this.settingsError = null;
      this.settingsNotice = 'Saved: the guardians use these settings now.';
      void this.load();
      return true;
    } catch (err) {
      this.settingsError = messageOf(err);
      this.settingsNotice = null;
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** Another account: its rules and its settings. */
  reset(): void {
    this.view = null;
    this.settings = null;
    this.error = null;
    void this.load();
    void this.loadSettings();
  }

  async #change(send: () => Promise<GuardsView>): Promise<boolean> {
    this.busy = true;
    this.reads.cancel();
    try {
      this.view = await send();
      this.error = null;
      return true;
    } catch (err) {
      this.error = messageOf(err);
      return false;
    } finally {
      this.busy = false;
    }
  }
}
