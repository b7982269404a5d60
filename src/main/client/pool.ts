/**
 * One keep-alive connection pool per exchange origin, shared by every client of that origin
 * (several accounts on one exchange reuse the same sockets) and closed with its last client.
 */
import { Pool } from 'undici';

const pools = new Map<string, { pool: Pool; users: number }>();

export function borrowPool(origin: string): Pool {
  let entry = pools.get(origin);
  if (!entry || entry.pool.closed || entry.pool.destroyed) {
    entry = {
      pool: new Pool(origin, {
        connections: 16,
        keepAliveTimeout: 10_000,
        keepAliveMaxTimeout: 60_000,
        // Never resend a request on our behalf: a resent POST /order could place a second bet.
        pipelining: 1,
      }),
      users: 0,
    };
    pools.set(origin, entry);
  }
  entry.users += 1;
  return entry.pool;
}

export async function returnPool(origin: string, pool: Pool): Promise<void> {
  const entry = pools.get(origin);
  if (!entry || entry.pool !== pool) return;
  entry.users -= 1;
  if (entry.users > 0) return;
  pools.delete(origin);
  await pool.close();
}
