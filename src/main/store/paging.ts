/** Paging rules shared by every list the store offers (they mirror the API's, docs/api.md 4.10). */

export const DEFAULT_LIMIT = 50;
/** Larger than the API's 100: the local history view may show long pages. */
export const MAX_LIMIT = 1000;

export interface PageRequest {
  /** Page size, default 50, at most 1000. */
  limit?: number;
  /** Entries to skip, default 0. An offset past the end gives an empty page. */
  offset?: number;
}

export function normalizePage(p: PageRequest): { limit: number; offset: number } {
  const limit = Math.min(MAX_LIMIT, Math.max(1, Math.trunc(p.limit ?? DEFAULT_LIMIT)));
  const offset = Math.max(0, Math.trunc(p.offset ?? 0));
  return { limit, offset };
}

/** Optional values bind as NULL; SQLite has no `undefined`. */
export function orNull<T>(v: T | undefined): T | null {
  return v === undefined ? null : v;
}
