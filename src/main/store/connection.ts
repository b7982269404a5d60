/**
 * Opening SQLite connections with the settings every part of the store relies on.
 */
import Database from 'better-sqlite3';

export type Db = Database.Database;
export type Statement = Database.Statement;

/** How long a writer waits for another connection's lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;
/** Writer page cache, in KiB; SQLite only takes what it uses. */
const CACHE_KIB = 64 * 1024;
/**
 * Pages the WAL may hold before SQLite copies them back into the database (default 1000).
 * A sync batch dirties pages all over the order indexes; checkpointing every ~40 MB instead of
 * every ~4 MB writes a page that changes in many batches back once, not once per batch.
 */
const WAL_AUTOCHECKPOINT_PAGES = 10_000;
/** After a checkpoint the WAL file is cut back to this size. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** The read-write connection the app uses for everything but long streaming reads. */
export function openWriter(file: string, nativeBinding?: string): Db {
  const db = new Database(file, nativeBinding === undefined ? {} : { nativeBinding });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL loses at most the last commits on power loss, never consistency.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`cache_size = -${CACHE_KIB}`);
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    db.pragma('temp_store = MEMORY');
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * A read-only connection for streaming a long result (an export) while the writer goes on:
 * better-sqlite3 refuses other statements on a connection whose iterator is open, and in WAL
 * mode this reader sees one consistent snapshot for as long as its iterator lives.
 */
export function openReader(file: string, nativeBinding?: string): Db {
  const db = new Database(file, {
    readonly: true,
    fileMustExist: true,
    ...(nativeBinding === undefined ? {} : { nativeBinding }),
  });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('cache_size = -8192');
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Caches prepared statements by their SQL: preparing costs more than running for small queries. */
export class StatementCache {
  readonly #db: Db;
  readonly #bySql = new Map<string, Statement>();

  constructor(db: Db) {
    this.#db = db;
  }

  get(sql: string): Statement {
    let stmt = this.#bySql.get(sql);
    if (!stmt) {
      stmt = this.#db.prepare(sql);
      this.#bySql.set(sql, stmt);
    }
    return stmt;
  }
}
