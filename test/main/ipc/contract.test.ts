import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import {
  Account,
  IPC_CHANNELS,
  IPC_EVENTS,
  ipcContract,
  ipcEvents,
  isIpcChannel,
  isIpcEvent,
} from '../../../src/shared/ipc/contract.js';
import { META_CSP, contentSecurityPolicy } from '../../../src/shared/ipc/csp.js';
import { readFileSync } from 'node:fs';

describe('the IPC contract', () => {
  it('gives every channel the preload knows an input and an output schema, and no others', () => {
    expect(Object.keys(ipcContract).sort()).toEqual([...IPC_CHANNELS].sort());
    for (const channel of IPC_CHANNELS) {
      expect(ipcContract[channel].input).toBeTypeOf('object');
      expect(ipcContract[channel].output).toBeTypeOf('object');
    }
  });

  it('gives every event a payload schema, and no others', () => {
    expect(Object.keys(ipcEvents).sort()).toEqual([...IPC_EVENTS].sort());
  });

  it('names channels and events domain:verb', () => {
    for (const name of [...IPC_CHANNELS, ...IPC_EVENTS]) expect(name).toMatch(/^[a-z]+:[a-z]+$/);
  });

  it('has the channels the desktop app needs', () => {
    expect(IPC_CHANNELS).toEqual(
      expect.arrayContaining([
        'app:info',
        'accounts:list',
        'accounts:add',
        'accounts:remove',
        'accounts:switch',
        'fixtures:list',
        'quote:request',
        'order:place',
        'orders:list',
        'positions:list',
        'alerts:list',
        'alerts:read',
        'practice:price',
        'status:get',
      ]),
    );
    expect(IPC_EVENTS).toEqual(
      expect.arrayContaining([
        'positions:changed',
        'orders:changed',
        'alert:raised',
        'alerts:changed',
        'app:show',
      ]),
    );
  });

  it('recognises only its own names at run time', () => {
    expect(isIpcChannel('quote:request')).toBe(true);
    expect(isIpcChannel('shell:exec')).toBe(false);
    expect(isIpcChannel(42)).toBe(false);
    expect(isIpcEvent('alert:raised')).toBe(true);
    expect(isIpcEvent('alert:knockout')).toBe(false);
    expect(isIpcEvent('quote:request')).toBe(false);
  });

  it('takes an API secret in but never gives one back: an account with a secret breaks it', () => {
    expect(ipcContract['accounts:add'].input.properties).toHaveProperty('secret');
    const account = Compile(Account);
    const clean = {
      id: 'a',
      label: 'Desk',
      baseUrl: 'https://api.example.com',
      apiKeyHint: 'wxyz',
      permission: 'read',
      active: false,
      createdAt: 1,
      sameWalletAs: [],
    };
    expect(account.Check(clean)).toBe(true);
    expect(account.Check({ ...clean, secret: 's3cr3t' })).toBe(false);
  });

  it('refuses a base URL that is not http or https', () => {
    const add = Compile(ipcContract['accounts:add'].input);
    const input = { label: 'x', baseUrl: 'https://api.example.com', apiKey: 'k', secret: 's' };
    expect(add.Check(input)).toBe(true);
    expect(add.Check({ ...input, baseUrl: 'file:///etc/passwd' })).toBe(false);
    expect(add.Check({ ...input, baseUrl: 'javascript:alert(1)' })).toBe(false);
  });

  // Types: contract.types.ts, checked by tsc (npm run typecheck), not at run time.
});

describe('the content security policy', () => {
  it('allows no inline or evaluated script or style', () => {
    for (const policy of [contentSecurityPolicy(), META_CSP]) {
      expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes/);
      const sources = policy.split('; ').flatMap((d) => d.split(' ').slice(1));
      // No wildcard and no whole scheme (a port wildcard on loopback is fine).
      for (const bare of ['*', 'http:', 'https:', 'ws:', 'blob:'])
        expect(sources).not.toContain(bare);
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("style-src 'self'");
      expect(policy).toContain("object-src 'none'");
    }
  });

  it('is what the renderer page carries in its meta tag', () => {
    const html = readFileSync('src/renderer/index.html', 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html);
    expect(meta?.[1]).toBe(META_CSP);
  });
});
