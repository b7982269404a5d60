/**
 * Export jobs of the app: one CSV export each, written to a file the user chose (desktop) or
 * streamed to the browser host's download (browser), with progress, cancel and failures in words.
 *
 * - Progress goes to `emit` at most once per `progressEveryMs` (default 100 ms: about ten a
 *   second) while rows are written, plus one final event: done, canceled or failed.
 * - Cancel aborts the export (AbortSignal): a file export removes its temporary file (csv.ts
 *   writes to a temporary name and renames it when complete), a download is destroyed
 *   mid-stream, so the browser marks it failed. Either way nothing partial is left.
 * - A download not fetched within `fetchWithinMs` (default 60 s) fails and its address stops
 *   working.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ExportKind, ExportProgress, ExportState } from '../../shared/ipc/contract.js';
import { DiskFullError, IoError, writeFaultOf } from '../store/errors.js';
import type { CsvExportResult, CsvOptions, CsvTarget } from './csv.js';
import type { ExportDownloads } from './downloads.js';

/** One export, as the app service prepared it. */
export interface ExportJobSpec {
  kind: ExportKind;
  /** Rows the filter matched when the export was asked for. */
  total: number;
  /** The file's name (what the user chose, or the download's name). */
  fileName: string;
  /** Writes the CSV into the target: exportSettlementsCsv, exportOrdersCsv or exportGuardLogCsv. */
  write(
    target: CsvTarget,
    options: Required<Pick<CsvOptions, 'signal' | 'onProgress'>>,
  ): Promise<CsvExportResult>;
}

export interface ExportJobsOptions {
  /** Where `export:progress` goes (the event hub). */
  emit: (progress: ExportProgress) => void;
  progressEveryMs?: number;
  fetchWithinMs?: number;
  now?: () => number;
}

export interface StartedExport {
  exportId: string;
  /** Browser host: the address the page fetches. */
  download: string | null;
  /** Desktop: the file being written. */
  file: string | null;
}

/** Why an export was stopped before it finished. */
export class ExportStopped extends Error {
  override readonly name = 'ExportStopped';
  constructor(readonly reason: 'canceled' | 'interrupted' | 'stopping') {
    super(STOPPED_MESSAGES[reason]);
  }
}

const STOPPED_MESSAGES: Record<ExportStopped['reason'], string> = {
  canceled: 'The export was canceled.',
  interrupted: 'The download was interrupted before it finished; nothing was saved.',
  stopping: 'Betdesk closed before the export finished; nothing was saved.',
};

export const NOT_FETCHED_MESSAGE =
  'The download did not start within a minute, so Betdesk dropped it. Export again.';

interface Job {
  readonly id: string;
  readonly spec: ExportJobSpec;
  readonly controller: AbortController;
  readonly ended: Promise<void>;
  readonly end: () => void;
  state: ExportState;
  rows: number;
  message: string | null;
  lastEmitAt: number;
  /** A waiting download: takes it back from the host. */
  withdraw?: () => boolean;
  expiry?: ReturnType<typeof setTimeout>;
}

export class ExportJobs {
  readonly #jobs = new Map<string, Job>();
  readonly #emit: (progress: ExportProgress) => void;
  readonly #progressEveryMs: number;
  readonly #fetchWithinMs: number;
  readonly #now: () => number;

  constructor(options: ExportJobsOptions) {
    this.#emit = options.emit;
    this.#progressEveryMs = options.progressEveryMs ?? 100;
    this.#fetchWithinMs = options.fetchWithinMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** Exports not yet ended (waiting for their fetch, or writing). */
  get active(): number {
    return this.#jobs.size;
  }

  /** Starts writing into `file` (an absolute path) at once. */
  toFile(spec: ExportJobSpec, file: string): StartedExport {
    const job = this.#register(spec, 'running');
    void this.#run(job, file);
    return { exportId: job.id, download: null, file };
  }

  /** Registers a download with the host; the export runs when the page fetches it. */
  toDownload(spec: ExportJobSpec, downloads: ExportDownloads): StartedExport {
    const job = this.#register(spec, 'waiting');
    let download: string;
    try {
      download = downloads.offer(job.id, {
        fileName: spec.fileName,
        send: (res) => this.#send(job, res),
      });
    } catch (err) {
      this.#jobs.delete(job.id);
      throw err;
    }
    job.withdraw = () => downloads.withdraw(job.id);
    job.expiry = setTimeout(() => {
      if (job.withdraw?.()) this.#finish(job, 'failed', NOT_FETCHED_MESSAGE);
    }, this.#fetchWithinMs);
    job.expiry.unref();
    this.#progress(job, true);
    return { exportId: job.id, download, file: null };
  }

  /**
   * Stops the export and waits until what it wrote is gone. False when it had already ended
   * (or finished while being canceled).
   */
  async cancel(exportId: string): Promise<boolean> {
    const job = this.#jobs.get(exportId);
    if (!job) return false;
    if (job.state === 'waiting' && job.withdraw?.()) {
      this.#finish(job, 'canceled', null);
      return true;
    }
    job.controller.abort(new ExportStopped('canceled'));
    await job.ended;
    return job.state === 'canceled';
  }

  /** Stops every export (the app is quitting) and waits until their files are cleaned up. */
  async stop(): Promise<void> {
    const jobs = [...this.#jobs.values()];
    for (const job of jobs) {
      if (job.state === 'waiting' && job.withdraw?.()) {
        this.#finish(job, 'failed', STOPPED_MESSAGES.stopping);
      } else {
        job.controller.abort(new ExportStopped('stopping'));
      }
    }
    await Promise.all(jobs.map((j) => j.ended));
  }

  #register(spec: ExportJobSpec, state: ExportState): Job {
    let end = () => {};
    const ended = new Promise<void>((resolve) => (end = resolve));
    const job: Job = {
      id: randomBytes(16).toString('base64url'),
      spec,
      controller: new AbortController(),
      ended,
      end,
      state,
      rows: 0,
      message: null,
      lastEmitAt: Number.NEGATIVE_INFINITY,
    };
    this.#jobs.set(job.id, job);
    return job;
  }

  /** The host's one fetch: streams into the response; rejects when it did not finish. */
  async #send(job: Job, res: ServerResponse): Promise<void> {
    clearTimeout(job.expiry);
    // The page went away (or the user stopped the download in the browser).
    const onClose = () => {
      if (!res.writableFinished) job.controller.abort(new ExportStopped('interrupted'));
    };
    res.once('close', onClose);
    try {
      await this.#run(job, res);
    } finally {
      res.off('close', onClose);
    }
    if (job.state !== 'done') throw new Error(job.message ?? STOPPED_MESSAGES.canceled);
  }

  /** Runs the export to its end and records how it ended; never rejects. */
  async #run(job: Job, target: CsvTarget): Promise<void> {
    job.state = 'running';
    this.#progress(job, true);
    const signal = job.controller.signal;
    try {
      const { rows } = await job.spec.write(target, {
        signal,
        onProgress: (rows) => {
          job.rows = rows;
          this.#progress(job, false);
        },
      });
      job.rows = rows;
      this.#finish(job, 'done', null);
    } catch (err) {
      const why: unknown = signal.aborted ? signal.reason : err;
      if (why instanceof ExportStopped && why.reason === 'canceled') {
        this.#finish(job, 'canceled', null);
      } else {
        this.#finish(job, 'failed', failureMessage(why));
      }
    }
  }

  #finish(job: Job, state: ExportState, message: string | null): void {
    if (!this.#jobs.delete(job.id)) return;
    clearTimeout(job.expiry);
    job.state = state;
    job.message = message;
    this.#progress(job, true);
    job.end();
  }

  #progress(job: Job, always: boolean): void {
    const now = this.#now();
    if (!always && now - job.lastEmitAt < this.#progressEveryMs) return;
    job.lastEmitAt = now;
    const { spec } = job;
    this.#emit({
      exportId: job.id,
      kind: spec.kind,
      state: job.state,
      rows: job.rows,
      // Rows settled after the count are exported too; the bar never passes its end.
      total: Math.max(spec.total, job.rows),
      fileName: spec.fileName,
      message: job.message,
    });
  }
}

/** Why an export failed, in words for the progress bar. */
export function failureMessage(err: unknown): string {
  // csv.ts says how far a file export got before the disk failed it, and that its file is gone.
  if (err instanceof ExportStopped || err instanceof DiskFullError || err instanceof IoError) {
    return err.message;
  }
  const fault = writeFaultOf(err);
  if (fault === 'disk-full') return 'The disk is full; nothing was saved.';
  if (fault === 'io-error') {
    return new IoError('Nothing was saved; the store is unchanged.', {
      cause: err,
      subject: 'Betdesk could not write the export',
    }).message;
  }
  const code = (err as { code?: unknown } | null)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'Betdesk may not write to that folder; nothing was saved.';
    case 'EROFS':
      return 'That disk is read-only; nothing was saved.';
    case 'ENOENT':
      return 'That folder no longer exists; nothing was saved.';
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return STOPPED_MESSAGES.interrupted;
  }
  const text = err instanceof Error ? err.message : String(err);
  if (err instanceof Error && err.name === 'SqliteError') {
    return `The local store could not be read (${trimStop(text)}); nothing was saved.`;
  }
  return `The export failed (${trimStop(text)}); nothing was saved.`;
}

function trimStop(text: string): string {
  return text.replace(/[.\s]+$/, '') || 'no reason given';
}

/** Where the app's exports go: the desktop asks for a file, the browser host serves downloads. */
export type ExportDestination =
  | {
      kind: 'file';
      /** The save dialog: an absolute path, or null when the user closed it. */
      chooseFile: (defaultName: string) => Promise<string | null>;
    }
  | { kind: 'download'; downloads: ExportDownloads };

/** `betdesk-settlements-2025-01-31.csv`: the kind and the local date. */
export function exportFileName(kind: ExportKind, at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `betdesk-${kind}-${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}.csv`;
}
