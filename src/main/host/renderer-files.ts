/**
 * The built renderer's files, for both ways the page is served, the browser host (server.ts) and
 * the desktop app's app:// scheme (shell/protocol.ts): which file a URL path names, never one
 * outside the renderer folder, and its Content-Type by extension (anything else is bytes).
 */
import { extname, resolve, sep } from 'node:path';

/**
 * The file `pathname` (as in a URL, still encoded) names under `root`, or null: undecodable, a
 * NUL byte, or a path that leaves `root` once decoded and resolved (`..`, encoded slashes or
 * backslashes, however spelt). `/` names the folder itself, which is no file: null.
 */
export function rendererFile(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const base = resolve(root);
  const file = resolve(base, `.${decoded}`);
  // The one rule: what it resolves to lies inside the renderer folder.
  return file.startsWith(base + sep) ? file : null;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}
