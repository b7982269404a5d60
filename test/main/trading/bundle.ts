/**
 * Bundles a TypeScript entry point into one ES module with esbuild (the one tsx runs on), so a
 * test that starts it many times pays a Node start, not a TypeScript compile and the load of
 * hundreds of files. Native modules stay outside. Without esbuild: `node --import tsx`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Runnable {
  file: string;
  args: string[];
  remove(): void;
}

export async function bundle(entry: string, name: string): Promise<Runnable> {
  const source = path.resolve(root, entry);
  try {
    const esbuild = await import('esbuild');
    const outDir = path.join(root, 'node_modules', '.tmp');
    fs.mkdirSync(outDir, { recursive: true });
    const outfile = path.join(outDir, `${name}-${process.pid}-${Date.now()}.mjs`);
    await esbuild.build({
      entryPoints: [source],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: ['better-sqlite3', 'keytar'],
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
      logLevel: 'warning',
    });
    return {
      file: process.execPath,
      args: [outfile],
      remove: () => fs.rmSync(outfile, { force: true }),
    };
  } catch {
    return { file: process.execPath, args: ['--import', 'tsx', source], remove: () => {} };
  }
}
