/**
 * The renderer's Content-Security-Policy, one definition for the Electron shell (response header
 * and the meta tag in src/renderer/index.html) and the browser host (response header). No
 * 'unsafe-inline', no 'unsafe-eval': scripts and styles come only from the app's own files.
 * `connect` adds the browser host's WebSocket address, the one place the page may talk to.
 */
export function contentSecurityPolicy(
  options: { connect?: readonly string[]; meta?: boolean } = {},
): string {
  const connect = ["'self'", ...(options.connect ?? [])].join(' ');
  const directives = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ];
  // Browsers ignore frame-ancestors in a meta tag (and warn about it): header only.
  if (!options.meta) directives.push("frame-ancestors 'none'");
  return directives.join('; ');
}

/** What the meta tag of index.html says: the same policy, any loopback WebSocket port. */
export const META_CSP = contentSecurityPolicy({
  connect: ['ws://127.0.0.1:*', 'ws://localhost:*'],
  meta: true,
});
