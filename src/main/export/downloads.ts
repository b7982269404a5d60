/**
 * Downloads the browser host serves: an export registered by the app waits here until the page
 * fetches its address once, and the host then streams it straight into the response.
 *
 * The host attaches with its token, which every download address carries: a download is checked
 * like the page itself (src/main/host/server.ts). An address is good for one fetch.
 */
import type { ServerResponse } from 'node:http';
import { TOKEN_PARAM } from '../../shared/ipc/ws-protocol.js';

/** `/export/<exportId>.csv`: the path part of every download address. */
export const DOWNLOAD_PATH = /^\/export\/([A-Za-z0-9_-]{8,64})\.csv$/;

/** An export waiting for its fetch. */
export interface PendingDownload {
  /** What the browser saves it as (Content-Disposition). */
  fileName: string;
  /**
   * Streams the CSV into the response (headers already set, not sent): resolves when it ended,
   * rejects when it failed or was canceled (the response is then destroyed, so the browser
   * marks the download failed).
   */
  send(res: ServerResponse): Promise<void>;
}

export class ExportDownloads {
  readonly #waiting = new Map<string, PendingDownload>();
  #token: string | null = null;

  /** The host serving the downloads, by its token; returns the detach. */
  attach(token: string): () => void {
    this.#token = token;
    return () => {
      if (this.#token === token) this.#token = null;
    };
  }

  /** Whether a host serves downloads now. */
  get attached(): boolean {
    return this.#token !== null;
  }

  /** Registers an export and answers the same-origin address the page fetches it from. */
  offer(exportId: string, download: PendingDownload): string {
    if (this.#token === null) throw new Error('No browser host serves downloads.');
    if (!DOWNLOAD_PATH.test(`/export/${exportId}.csv`)) {
      throw new Error(`"${exportId}" cannot name a download.`);
    }
    this.#waiting.set(exportId, download);
    return `/export/${exportId}.csv?${TOKEN_PARAM}=${encodeURIComponent(this.#token)}`;
  }

  /** The export for its one fetch, removed as it is handed out; undefined when unknown or used. */
  take(exportId: string): PendingDownload | undefined {
    const download = this.#waiting.get(exportId);
    this.#waiting.delete(exportId);
    return download;
  }

  /** Drops an export nobody fetched (canceled, or not fetched in time). */
  withdraw(exportId: string): boolean {
    return this.#waiting.delete(exportId);
  }
}
