/**
 * CSV export from the app: the options, one export at a time, its progress (rows written of
 * total, from `export:progress`) and Cancel. Main writes the file through the same module as
 * the CLI. In the desktop app main asks where to save and writes there; in the browser host the
 * page follows the `download` path and the host streams the file, so it is never built here.
 */
import type {
  ExportKind,
  ExportProgress,
  ExportRequest,
  ExportState,
  GuardLogScope,
  HistoryFilter,
  OrdersScope,
} from '../../../../shared/ipc/contract.js';
import { messageOf, type Bridge } from '../bridge.js';
import { count } from '../format.js';
import { exportSentence } from '../history-words.js';
import { Listeners } from '../listeners.js';

export interface ExportJob {
  exportId: string;
  kind: ExportKind;
  state: ExportState;
  rows: number;
  total: number;
  fileName: string;
  message: string | null;
  /** Desktop: where it is written. */
  file: string | null;
  /** Browser host: the path the page downloads it from. */
  download: string | null;
}

/** Follows a same-origin download path (an <a download>, in the page). */
export type StartDownload = (path: string, fileName: string) => void;

/** What an export is of: the filter the screen shows now, and that filter in words. */
export type ExportTarget = (
  | { kind: 'settlements'; filter: HistoryFilter }
  | { kind: 'orders'; filter: OrdersScope }
  | { kind: 'guards'; filter: GuardLogScope }
) & { about: string };

/** "The 1,204 settlements these filters show: Last 30 days · EPL · Closed." */
export function aboutFilters(n: number, noun: string, filters: readonly string[]): string {
  return `The ${count(n)} ${noun}${n === 1 ? '' : 's'} these filters show: ${filters.join(' · ')}.`;
}

const ENDED: readonly ExportState[] = ['done', 'canceled', 'failed'];

export class ExportsState {
  /** Begin the file with a UTF-8 byte order mark (some spreadsheets need it). */
  bom = $state(false);
  /** Keep a spreadsheet from running a cell as a formula; on unless the user turns it off. */
  formulaGuard = $state(true);
  /** The export the options dialog is open for, or null. */
  asking = $state<ExportTarget | null>(null);
  /** export:start is on its way. */
  starting = $state(false);
  // Set through `#setJob` once the export runs: an export that ends tells the end listeners.
  #job = $state.raw<ExportJob | null>(null);
  /** Why the last export could not start, in words. */
  error = $state<string | null>(null);
  /** Progress that came before the answer to export:start (a small export can end first). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- held until the answer, never shown
  #progressBeforeStart = new Map<string, ExportProgress>();
  readonly #ended = new Listeners<[ExportJob]>();
  readonly #bridge: Bridge;
  readonly #download: StartDownload;

  constructor(bridge: Bridge, download: StartDownload) {
    this.#bridge = bridge;
    this.#download = download;
  }

  get job(): ExportJob | null {
    return this.#job;
  }
  /** An export is on its way: a second one waits for it. */
  readonly busy: boolean = $derived(
    this.starting || (this.#job !== null && !ENDED.includes(this.#job.state)),
  );
  /** The progress line's colour: working until the export ends, then how it ended. */
  readonly tone: 'working' | 'ok' | 'failed' = $derived.by(() => {
    const state = this.#job?.state;
    if (state === undefined || state === 'waiting' || state === 'running') return 'working';
    return state === 'failed' ? 'failed' : 'ok';
  });
  /** Rows written of total, 0 to 1, while it runs; null when not known. */
  readonly fraction: number | null = $derived.by(() => {
    const job = this.#job;
    return job && job.state === 'running' && job.total > 0
      ? Math.min(1, job.rows / job.total)
      : null;
  });
  /** The job in one sentence; null when there is none. */
  readonly words: string | null = $derived(this.#job ? exportSentence(this.#job) : null);

  /** Opens the options for an export of `target`. */
  ask(target: ExportTarget): void {
    this.error = null;
    this.asking = target;
  }

  /** Closes the options without exporting. */
  dismissAsk(): void {
    this.asking = null;
  }

  /** Starts the export the options were open for (or `target`), with the options chosen. */
  async run(target: ExportTarget | null = this.asking): Promise<void> {
    this.asking = null;
    if (!target || this.busy) return;
    const options = { bom: this.bom, formulaGuard: this.formulaGuard };
    const request: ExportRequest =
      target.kind === 'settlements'
        ? { kind: 'settlements', filter: target.filter, options }
        : target.kind === 'orders'
          ? { kind: 'orders', filter: target.filter, options }
          : { kind: 'guards', filter: target.filter, options };
    this.starting = true;
    this.error = null;
    try {
      const started = (await this.#bridge.invoke('export:start', request)).export;
      if (!started) return; // the save dialog was closed: nothing to do
      this.#job = {
        exportId: started.exportId,
        kind: target.kind,
        state: 'waiting',
        rows: 0,
        total: started.total,
        fileName: started.fileName,
        message: null,
        file: started.file,
        download: started.download,
      };
      const early = this.#progressBeforeStart.get(started.exportId);
      this.#progressBeforeStart.clear();
      if (early) this.#applyProgress(early);
      if (started.download) this.#download(started.download, started.fileName);
    } catch (err) {
      this.error = messageOf(err);
    } finally {
      this.starting = false;
    }
  }

  async cancel(): Promise<void> {
    const job = this.#job;
    if (!job || ENDED.includes(job.state)) return;
    try {
      const { canceled } = await this.#bridge.invoke('export:cancel', { exportId: job.exportId });
      // An export that had just ended reports how it ended by itself.
      if (canceled && this.#job?.exportId === job.exportId && !ENDED.includes(this.#job.state)) {
        this.#setJob({ ...this.#job, state: 'canceled' });
      }
    } catch (err) {
      this.error = messageOf(err);
    }
  }

  /** Runs `listener` when an export ends: done, canceled or failed. */
  onEnd(listener: (job: ExportJob) => void): () => void {
    return this.#ended.add(listener);
  }

  /** Hides an export that has ended. */
  dismiss(): void {
    if (this.#job && ENDED.includes(this.#job.state)) this.#job = null;
    this.error = null;
  }

  /** Follows `export:progress`; returns the function that stops. */
  start(): () => void {
    return this.#bridge.on('export:progress', (p) => this.#applyProgress(p));
  }

  #applyProgress(p: ExportProgress): void {
    const job = this.#job;
    if (!job || job.exportId !== p.exportId) {
      if (this.starting) this.#progressBeforeStart.set(p.exportId, p);
      return;
    }
    // An ended export stays ended: a late "running" must not bring it back.
    if (ENDED.includes(job.state)) return;
    this.#setJob({
      ...job,
      state: p.state,
      rows: p.rows,
      total: p.total,
      fileName: p.fileName,
      message: p.message,
    });
  }

  #setJob(job: ExportJob): void {
    this.#job = job;
    if (ENDED.includes(job.state)) this.#ended.call(job);
  }
}
