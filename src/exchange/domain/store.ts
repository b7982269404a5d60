/**
 * The state file (--data FILE): one SQLite database in WAL mode holding every record as a JSON
 * row keyed by (kind, id), plus a few meta values. Only the records changed since the last flush
 * are written, in one transaction, so a flush stays cheap however many orders exist.
 *
 * API secrets never enter the database: they are derived from the API key with a master secret
 * kept in a sibling file `<FILE>.keys` (mode 0600).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';

const SCHEMA_VERSION = 1;

export type RecordKind = 'fixture' | 'wallet' | 'key' | 'order' | 'position' | 'settlement';

export class StateStore {
  private readonly db: Database.Database;
  private readonly dirty = new Map<string, { kind: RecordKind; id: string; value: unknown }>();
  private readonly dirtyMeta = new Map<string, string>();
  private readonly upsert: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly putMeta: Database.Statement;
  private readonly flushTx: () => void;

  constructor(readonly file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    const version = this.db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      this.db.close();
      throw new Error(
        `${file} was written by a newer sandbox exchange (schema ${version}); this one reads ${SCHEMA_VERSION}`,
      );
    }
    if (version < SCHEMA_VERSION) {
      this.db.transaction(() => {
        this.db.exec(`
          CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
          CREATE TABLE IF NOT EXISTS records (
            kind TEXT NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (kind, id)
          );`);
        this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
      })();
    }
    this.upsert = this.db.prepare(
      'INSERT INTO records (kind, id, json) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET json = excluded.json',
    );
    this.remove = this.db.prepare('DELETE FROM records WHERE kind = ? AND id = ?');
    this.putMeta = this.db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.flushTx = this.db.transaction(() => {
      for (const { kind, id, value } of this.dirty.values()) {
        if (value === null) this.remove.run(kind, id);
        else this.upsert.run(kind, id, JSON.stringify(value));
      }
      for (const [key, value] of this.dirtyMeta) this.putMeta.run(key, value);
    });
  }

  meta(): Map<string, string> {
    const rows = this.db.prepare('SELECT key, value FROM meta').all() as {
      key: string;
      value: string;
    }[];
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  load<T>(kind: RecordKind): T[] {
    const rows = this.db.prepare('SELECT json FROM records WHERE kind = ?').all(kind) as {
      json: string;
    }[];
    return rows.map((r) => JSON.parse(r.json) as T);
  }

  /** Marks a record to be written by the next flush (the object is serialized then); null deletes. */
  put(kind: RecordKind, id: string, value: unknown): void {
    this.dirty.set(`${kind}\u0000${id}`, { kind, id, value });
  }

  setMeta(key: string, value: string): void {
    this.dirtyMeta.set(key, value);
  }

  get hasChanges(): boolean {
    return this.dirty.size > 0 || this.dirtyMeta.size > 0;
  }

  flush(): void {
    if (!this.hasChanges) return;
    this.flushTx();
    this.dirty.clear();
    this.dirtyMeta.clear();
  }

  close(): void {
    this.flush();
    this.db.close();
  }

  /** The master secret API secrets are derived from, created on first use. */
  static masterSecret(file: string): Buffer {
    const keyFile = `${file}.keys`;
    if (existsSync(keyFile)) {
      const hex = readFileSync(keyFile, 'utf8').trim();
      if (/^[0-9a-f]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
    }
    const secret = randomBytes(32);
    writeFileSync(keyFile, `${secret.toString('hex')}\n`, { mode: 0o600 });
    return secret;
  }
}
