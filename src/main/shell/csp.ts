/**
 * Sets the renderer's CSP as a response header on everything the session loads (the dev server's
 * pages included; app:// answers carry it from the protocol handler too), and refuses every
 * permission a page may ask for: Betdesk's pages need none, and notifications come from main.
 */
import type { Session } from 'electron';

export function installCsp(session: Session, policy: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    const responseHeaders: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      // Drop any policy the response brings; ours is the only one.
      if (name.toLowerCase() !== 'content-security-policy') responseHeaders[name] = value;
    }
    responseHeaders['Content-Security-Policy'] = [policy];
    callback({ responseHeaders });
  });
}

export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
