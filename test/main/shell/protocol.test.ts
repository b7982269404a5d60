import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../../src/shared/ipc/csp.js';
import {
  APP_PAGE_URL,
  appFilePath,
  appFilesHandler,
  registerAppScheme,
} from '../../../src/main/shell/protocol.js';
import { tempDir } from '../../harness/temp.js';

const CSP = contentSecurityPolicy();
let temp: { dir: string; cleanup: () => void };
let root: string;

beforeEach(() => {
  temp = tempDir('betdesk-protocol-');
  root = join(temp.dir, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Betdesk</title>');
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'index-abc.css'), 'body{}');
  // Beside the renderer, sharing its name as a prefix: must never be served.
  mkdirSync(join(temp.dir, 'renderer-private'));
  writeFileSync(join(temp.dir, 'renderer-private', 'secret.txt'), 'secret');
  writeFileSync(join(temp.dir, 'secret.txt'), 'secret');
});
afterEach(() => temp.cleanup());

const get = (url: string, method = 'GET') =>
  appFilesHandler({ root, csp: CSP })(new Request(url, { method }));

describe('the app:// scheme', () => {
  it('is registered standard and secure, with fetch', () => {
    const registered: unknown[] = [];
    registerAppScheme({ registerSchemesAsPrivileged: (schemes) => registered.push(...schemes) });
    expect(registered).toEqual([
      {
        scheme: 'app',
        privileges: expect.objectContaining({
          standard: true,
          secure: true,
          supportFetchAPI: true,
        }) as unknown,
      },
    ]);
    expect(APP_PAGE_URL).toBe('app://betdesk/index.html');
  });
});

describe('the app:// handler', () => {
  it('serves index.html with its type and the CSP header', async () => {
    const answer = await get(APP_PAGE_URL);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('content-security-policy')).toBe(CSP);
    expect(await answer.text()).toBe('<!doctype html><title>Betdesk</title>');
  });

  it('serves the root as index.html, and the assets with their types', async () => {
    expect(await (await get('app://betdesk/')).text()).toContain('<title>Betdesk');
    const script = await get('app://betdesk/assets/index-abc.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-security-policy')).toBe(CSP);
    expect(await script.text()).toBe('console.log(1)');
    const style = await get('app://betdesk/assets/index-abc.css?v=1#x');
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers HEAD without a body', async () => {
    const answer = await get(APP_PAGE_URL, 'HEAD');
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('');
  });

  it('refuses every way out of the renderer folder with a 404', async () => {
    for (const url of [
      'app://betdesk/../secret.txt',
      'app://betdesk/%2e%2e/secret.txt',
      'app://betdesk/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      'app://betdesk/..%2fsecret.txt',
      'app://betdesk/..%5csecret.txt',
      'app://betdesk/%2e%2e%2frenderer-private/secret.txt',
      'app://betdesk/index.html%00.js',
    ]) {
      const answer = await get(url);
      expect(answer.status, url).toBe(404);
      expect(await answer.text(), url).toBe('Not found');
    }
  });

  it('serves no other host and no other scheme', async () => {
    for (const url of [
      'app://evil/index.html',
      'app://betdesk.evil/index.html',
      'file:///etc/passwd',
    ]) {
      expect((await get(url)).status, url).toBe(404);
    }
  });

  it('answers 404 for a missing file, a folder and a method other than GET or HEAD', async () => {
    expect((await get('app://betdesk/missing.js')).status).toBe(404);
    expect((await get('app://betdesk/assets/')).status).toBe(404);
    expect((await get(APP_PAGE_URL, 'POST')).status).toBe(404);
  });
});

describe('which file a URL names', () => {
  it('is inside the root, or none', () => {
    expect(appFilePath('app://betdesk/index.html', '/r')).toBe(join('/r', 'index.html'));
    expect(appFilePath('app://betdesk/a/b.js', '/r')).toBe(join('/r', 'a', 'b.js'));
    expect(appFilePath('app://betdesk/%E2%82%AC.txt', '/r')).toBe(join('/r', '€.txt'));
    expect(appFilePath('app://betdesk/%zz', '/r')).toBeNull();
    expect(appFilePath('not a url', '/r')).toBeNull();
  });
});
