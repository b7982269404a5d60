/**
 * Moving a store that an earlier version kept elsewhere (data-dir.ts, legacyDataDirs) to the one
 * data folder, once: the store and the paper exchange's files. The old files are kept, renamed
 * `*.moved`, with a note beside them; nothing is ever merged or deleted. When both places hold a
 * store, the new one is used and the other left as it is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { copyWhole, moveDatabase } from '../store/index.js';
import { PAPER_FILE, STORE_FILE } from './file-names.js';

export { STORE_FILE } from './file-names.js';
/** Left in the old folder, saying where the store went. */
export const MOVED_NOTE = 'BETDESK-MOVED.txt';

export type StoreMove =
  { kind: 'moved'; from: string; to: string } | { kind: 'two-stores'; used: string; other: string };

/**
 * Moves the store found in the first of `legacyDirs` that has one into `dataDir`, when `dataDir`
 * has none. Says what it did; an empty list when there was nothing to do.
 * @throws StoreError when another program still has the old store open (it would go on
 *   writing to the old file); nothing is moved then.
 */
export function moveLegacyStore(
  dataDir: string,
  legacyDirs: readonly string[],
  at: number,
  nativeBinding?: string,
): StoreMove[] {
  const moves: StoreMove[] = [];
  for (const dir of legacyDirs) {
    if (!fs.existsSync(path.join(dir, STORE_FILE)) || sameFolder(dir, dataDir)) continue;
    if (fs.existsSync(path.join(dataDir, STORE_FILE))) {
      moves.push({ kind: 'two-stores', used: dataDir, other: dir });
      continue;
    }
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const moved = [STORE_FILE];
    moveDatabase(path.join(dir, STORE_FILE), path.join(dataDir, STORE_FILE), nativeBinding);
    // The paper exchange's state and its key file go with the store that names its wallet.
    if (
      fs.existsSync(path.join(dir, PAPER_FILE)) &&
      !fs.existsSync(path.join(dataDir, PAPER_FILE))
    ) {
      moveDatabase(path.join(dir, PAPER_FILE), path.join(dataDir, PAPER_FILE), nativeBinding);
      moved.push(PAPER_FILE);
      const keys = `${PAPER_FILE}.keys`;
      if (fs.existsSync(path.join(dir, keys))) {
        copyThenRetire(path.join(dir, keys), path.join(dataDir, keys));
        moved.push(keys);
      }
    }
    writeNote(dir, dataDir, moved, at);
    moves.push({ kind: 'moved', from: dir, to: dataDir });
  }
  return moves;
}

/** True when `a` and `b` are one folder (on macOS and Windows `Betdesk` is `betdesk`). */
export function sameFolder(a: string, b: string): boolean {
  try {
    const sa = fs.statSync(a, { bigint: true });
    const sb = fs.statSync(b, { bigint: true });
    return sa.ino === sb.ino && sa.dev === sb.dev;
  } catch {
    return false;
  }
}

function copyThenRetire(from: string, to: string): void {
  copyWhole(from, to);
  fs.chmodSync(to, 0o600);
  fs.renameSync(from, `${from}.moved`);
}

function writeNote(dir: string, dataDir: string, moved: readonly string[], at: number): void {
  const text =
    `${new Date(at).toISOString()}: Betdesk moved its data from this folder to\n` +
    `  ${dataDir}\n` +
    `Moved: ${moved.join(', ')}. The old copies here end in .moved; Betdesk no longer reads ` +
    'them, and you may delete them once Betdesk works with the new folder.\n';
  fs.appendFileSync(path.join(dir, MOVED_NOTE), text);
}
