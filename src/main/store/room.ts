/**
 * Whether a failed write found no room: what tells a full disk from an I/O error when SQLite
 * says only SQLITE_IOERR_WRITE (it says SQLITE_FULL for ENOSPC, but IOERR_WRITE for EFBIG, EDQUOT
 * and EIO alike). The free space of the store's file system (statfs) answers it, and so does a
 * file-size limit on this process, past which the OS refuses writes with EFBIG (docs/data.md).
 */
import fs from 'node:fs';
import path from 'node:path';

/** Less free space than this for the user is no room: SQLite writes pages and a WAL. */
export const MIN_ROOM_BYTES = 1024 * 1024;

/** How a failed write's room is looked at; a seam for the tests of the wording. */
export interface RoomProbe {
  /** True when this process may not write files past a size (RLIMIT_FSIZE). */
  fileSizeLimited(): boolean;
  /** The bytes the user may still write in `dir`'s file system; undefined when unknown. */
  freeBytes(dir: string): number | undefined;
}

/** The folders of the stores opened in this process: where their writes go. */
const storeFolders = new Set<string>();

/** Remembers `file`'s folder, so a failed write of its store can be worded truly. */
export function noteStoreFile(file: string): void {
  storeFolders.add(path.dirname(path.resolve(file)));
}

export const systemRoom: RoomProbe = {
  fileSizeLimited() {
    if (process.platform !== 'linux') return false;
    try {
      const line = fs
        .readFileSync('/proc/self/limits', 'utf8')
        .split('\n')
        .find((l) => l.startsWith('Max file size'));
      // "Max file size   <soft>   <hard>   bytes": the soft limit is the one the OS applies.
      const soft = line?.slice('Max file size'.length).trim().split(/\s+/)[0];
      return soft !== undefined && soft !== 'unlimited';
    } catch {
      return false;
    }
  },
  freeBytes(dir) {
    try {
      const s = fs.statfsSync(dir);
      return s.bavail * s.bsize;
    } catch {
      return undefined;
    }
  },
};

/**
 * True when a write that failed in `paths` (files or folders; the stores' folders when none)
 * found no room: a file-size limit, or a file system with less than MIN_ROOM_BYTES free.
 */
export function foundNoRoom(paths: readonly string[], probe: RoomProbe = systemRoom): boolean {
  if (probe.fileSizeLimited()) return true;
  const dirs = paths.length > 0 ? paths.map((p) => path.dirname(path.resolve(p))) : storeFolders;
  for (const dir of dirs) {
    const free = probe.freeBytes(dir);
    if (free !== undefined && free < MIN_ROOM_BYTES) return true;
  }
  return false;
}
