/**
 * Help for the user and for support (Accounts screen): where the logs are, opening their folder,
 * and copying the diagnostics. Every outcome is told in words; when the browser refuses the
 * clipboard, the text is offered to select and copy by hand instead.
 */
import { sizeWords } from '../../../../shared/bytes.js';
import { messageOf, type Bridge } from '../bridge.js';

export type SupportOutcome = { tone: 'ok' | 'error'; words: string };

export class SupportState {
  /** The logs folder, once known; null before, or when no log file is kept. */
  logsDir = $state<string | null>(null);
  /** Whether the folders have been asked for (answered or failed). */
  loaded = $state(false);
  busy = $state(false);
  /** What the last action did, in words. */
  outcome = $state<SupportOutcome | null>(null);
  /** The diagnostics the clipboard refused, shown for copying by hand; null otherwise. */
  manualCopy = $state<string | null>(null);
  readonly #bridge: Bridge;
  readonly #copy: (text: string) => Promise<boolean>;

  /** `copy` puts text on the clipboard and says whether it could (lib/clipboard.ts). */
  constructor(bridge: Bridge, copy: (text: string) => Promise<boolean>) {
    this.#bridge = bridge;
    this.#copy = copy;
  }

  async load(): Promise<void> {
    try {
      this.logsDir = (await this.#bridge.invoke('support:folders', {})).logs;
    } catch (err) {
      this.outcome = { tone: 'error', words: messageOf(err) };
    } finally {
      this.loaded = true;
    }
  }

  async copyDiagnostics(): Promise<void> {
    await this.#run(async () => {
      const d = await this.#bridge.invoke('support:diagnostics', {});
      if (await this.#copy(d.text)) {
        this.manualCopy = null;
        return { tone: 'ok', words: `Diagnostics copied: ${sizeWords(d.bytes)}.` };
      }
      this.manualCopy = d.text;
      return {
        tone: 'error',
        words: 'The browser refused the clipboard: the diagnostics are selected below to copy.',
      };
    });
  }

  async openLogsFolder(): Promise<void> {
    await this.#run(async () => {
      const r = await this.#bridge.invoke('logs:open', {});
      if (r.path !== null) this.logsDir = r.path;
      if (r.opened) return { tone: 'ok', words: `Opened the logs folder: ${r.path ?? ''}` };
      const where = r.path === null ? '' : ` The logs are in ${r.path}`;
      return { tone: 'error', words: `Could not open the folder: ${r.error ?? ''}${where}` };
    });
  }

  /** Hides the text offered for copying by hand. */
  closeManualCopy(): void {
    this.manualCopy = null;
  }

  async #run(act: () => Promise<SupportOutcome>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      this.outcome = await act();
    } catch (err) {
      this.outcome = { tone: 'error', words: messageOf(err) };
    } finally {
      this.busy = false;
    }
  }
}
