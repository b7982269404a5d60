/**
 * The app:// scheme the window loads the built renderer from, instead of file://, as Electron's
 * security checklist asks: a standard, secure origin of its own (`app://betdesk`), serving only
 * the files under out/renderer, each with the renderer's CSP as a response header. With it the
 * packaged app can turn off file://'s extra privileges (the grantFileProtocolExtraPrivileges
 * fuse).
 */
import { readFile } from 'node:fs/promises';
import type { Protocol } from 'electron';
import { contentTypeOf, rendererFile } from '../host/renderer-files.js';

export const APP_SCHEME = 'app';
export const APP_HOST = 'betdesk';
/** The one page of the app, and the only top frame the bridge answers (besides the dev server). */
export const APP_PAGE_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * Must run before the app is ready (Electron refuses it later). Standard, so relative URLs and
 * web storage work as on https; secure, so the page is a secure context; fetch for the assets.
 */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
    },
  ]);
}

export interface AppFiles {
  /** The built renderer's directory (out/renderer; inside the asar when packaged). */
  root: string;
  /** The Content-Security-Policy header every answer carries. */
  csp: string;
  /** Reads a file; tests count or fail reads. */
  read?: (path: string) => Promise<Uint8Array>;
}

/**
 * The file a URL names under `root`, or null: another scheme or host, or a path that leaves
 * `root` once decoded and resolved (`..`, encoded slashes or backslashes, however spelt).
 * `/` is index.html.
 */
export function appFilePath(url: string, root: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  return rendererFile(root, parsed.pathname === '/' ? '/index.html' : parsed.pathname);
}

/** The `protocol.handle` handler: the file with its type and the CSP, or a plain 404. */
export function appFilesHandler(files: AppFiles): (request: Request) => Promise<Response> {
  const read = files.read ?? readFile;
  return async (request) => {
    const notFound = () =>
      new Response('Not found', {
        status: 404,
        headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      });
    if (request.method !== 'GET' && request.method !== 'HEAD') return notFound();
    const file = appFilePath(request.url, files.root);
    if (!file) return notFound();
    let body: Uint8Array;
    try {
      body = await read(file);
    } catch {
      // A directory, a missing file or an unreadable one: there is nothing to serve.
      return notFound();
    }
    const headers = {
      'Content-Type': contentTypeOf(file),
      'Content-Security-Policy': files.csp,
      'X-Content-Type-Options': 'nosniff',
    };
    return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
  };
}

/** Serves the renderer on app:// (after ready). */
export function serveAppFiles(protocol: Pick<Protocol, 'handle'>, files: AppFiles): void {
  protocol.handle(APP_SCHEME, appFilesHandler(files));
}
