/**
 * The browser host's export downloads: `GET /export/<exportId>.csv?token=...` streams the CSV
 * straight from the export module into the response, so the file is never built in memory,
 * neither here nor in the page.
 *
 * - The token is checked like the page's (server.ts checks the address and Host first).
 * - One fetch per export: an unknown or used id is 404.
 * - No Content-Length: the response is chunked, so a stream cut short (canceled, failed, or the
 *   host stopped) ends without its last chunk and the browser marks the download failed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DOWNLOAD_PATH, type ExportDownloads } from '../export/downloads.js';

export interface DownloadRouteContext {
  downloads: ExportDownloads | undefined;
  /** Whether the request carries the host's token. */
  tokenOk: boolean;
  /** Sends a short plain-text answer. */
  send(res: ServerResponse, status: number, text: string): void;
}

/** The export id of a download path, or null when the path is not one. */
export function downloadId(pathname: string): string | null {
  return DOWNLOAD_PATH.exec(pathname)?.[1] ?? null;
}

export async function serveDownload(
  req: IncomingMessage,
  res: ServerResponse,
  exportId: string,
  ctx: DownloadRouteContext,
): Promise<void> {
  if (req.method !== 'GET') {
    res.setHeader('Allow', 'GET');
    ctx.send(res, 405, 'Betdesk serves an export once, with GET.');
    return;
  }
  if (!ctx.tokenOk) {
    ctx.send(res, 403, 'Download exports from the Betdesk page that asked for them.');
    return;
  }
  const download = ctx.downloads?.take(exportId);
  if (!download) {
    ctx.send(res, 404, 'There is no such export, or it was downloaded already. Export again.');
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', contentDisposition(download.fileName));
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  try {
    await download.send(res);
  } catch (err) {
    // Failed before its first byte (the store could not be read): say so instead of a file.
    if (!res.headersSent) {
      res.removeHeader('Content-Disposition');
      res.removeHeader('Cache-Control');
      ctx.send(res, 500, err instanceof Error ? err.message : 'The export failed.');
    } else {
      res.destroy();
    }
  }
}

/** `attachment` with the name, quoted for old browsers and as RFC 6266 `filename*` for all. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
