/**
 * A full disk and the app's log: the app goes on without the file, says so once, and its log
 * still closes (quitting waits for that). The log runs in a child process under a file-size
 * limit (test/harness/file-size-limit.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { spawnWithFileSizeLimit, tsxScript } from '../../harness/file-size-limit.js';
import { tempDir } from '../../harness/temp.js';

const LIMIT_BYTES = 256 * 1024;
/** About 1.3 MB of lines: five times what the file may hold. */
const LINES = 5000;

let cleanup = () => {};
afterEach(() => cleanup());

it('goes on without the file when the disk is full, says so once, and still closes', async () => {
  const tmp = tempDir('betdesk-log-full-');
  cleanup = tmp.cleanup;
  const dir = path.join(tmp.dir, 'logs');
  const child = spawnWithFileSizeLimit(
    LIMIT_BYTES,
    ...tsxScript('test/main/log/fixtures/log-child.ts', dir, String(LINES)),
  );

  const exit = await child.exited;

  expect(exit, child.stderr()).toEqual({ code: 0, signal: null });
  expect(JSON.parse(child.stdout())).toEqual({ written: LINES });
  expect(child.stderr()).toBe(
    'Betdesk: the log file could not be written: EFBIG: file too large, write\n',
  );
  const [file, ...others] = fs.readdirSync(dir);
  expect(others).toEqual([]);
  expect(fs.statSync(path.join(dir, file!)).size).toBeLessThanOrEqual(LIMIT_BYTES);
});
