import { describe, expect, it } from 'vitest';
import type { Session } from 'electron';
import { denyPermissions, installCsp } from '../../../src/main/shell/csp.js';
import { contentSecurityPolicy } from '../../../src/shared/ipc/csp.js';
import { FakeSession } from './fake-electron.js';

function headersFor(session: FakeSession, responseHeaders: Record<string, string[]>) {
  let out: Record<string, string[]> | undefined;
  session.headersListener?.({ responseHeaders }, (r) => (out = r.responseHeaders));
  return out;
}

describe('the CSP response header', () => {
  it('is set on every response the session loads', () => {
    const session = new FakeSession();
    installCsp(session as unknown as Session, contentSecurityPolicy());
    const headers = headersFor(session, { 'Content-Type': ['text/html'] });
    expect(headers).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': [contentSecurityPolicy()],
    });
  });

  it('replaces any policy a response brings, whatever its letter case', () => {
    const session = new FakeSession();
    installCsp(session as unknown as Session, "default-src 'self'");
    const headers = headersFor(session, {
      'content-security-policy': ["default-src *; script-src 'unsafe-inline'"],
    });
    expect(headers).toEqual({ 'Content-Security-Policy': ["default-src 'self'"] });
  });
});

describe('page permissions', () => {
  it('refuses every permission a page asks for', () => {
    const session = new FakeSession();
    denyPermissions(session as unknown as Session);
    const answers: boolean[] = [];
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      session.permissionRequest?.({}, p, (ok) => answers.push(ok));
    }
    expect(answers).toEqual([false, false, false, false]);
    expect(session.permissionCheck?.()).toBe(false);
  });
});
