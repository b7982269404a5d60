/**
 * build/import-cycles.mjs, which `npm run lint` runs: a folder whose files import each other in
 * a circle, type-only imports included, fails with the circle named; one without passes.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../harness/temp.js';

const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, '../../build/import-cycles.mjs');

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function folder(files: Record<string, string>): string {
  const { dir, cleanup } = tempDir('betdesk-cycles-');
  cleanups.push(cleanup);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

async function check(dir: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [SCRIPT, dir]);
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, out: e.stderr };
  }
}

describe('the import cycle check', () => {
  it('names a circle made through a type-only import and fails', async () => {
    const dir = folder({
      'a.ts': "import { b } from './b.js';\nexport const a = b + 1;\n",
      'b.ts': "import type { C } from './c.js';\nexport const b: C = 1;\n",
      'c.ts': "import { a } from './a.js';\nexport type C = number;\nexport const c = a;\n",
    });
    const { code, out } = await check(dir);
    expect(code).toBe(1);
    expect(out).toMatch(/import cycle: .*a\.ts -> .*b\.ts -> .*c\.ts -> .*a\.ts/);
  });

  it('passes a folder whose imports all point one way, comments ignored', async () => {
    const dir = folder({
      'a.ts': "import { b } from './b.js';\nexport const a = b;\n",
      'b.ts': "// import { a } from './a.js';\nexport const b = 1;\n",
    });
    const { code, out } = await check(dir);
    expect(code).toBe(0);
    expect(out).toContain('No import cycle among 2 files.');
  });
});
