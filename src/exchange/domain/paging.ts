/** Pagination of docs/api.md 4.10: filter first, then page; total counts the matches. */
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../../shared/api/limits.js';

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

export function pageOf<T>(matches: readonly T[], limit?: number, offset?: number): Page<T> {
  const l = Math.min(PAGE_LIMIT_MAX, Math.max(1, Math.floor(limit ?? PAGE_LIMIT_DEFAULT)));
  const o = Math.max(0, Math.floor(offset ?? 0));
  return { items: matches.slice(o, o + l), total: matches.length, limit: l, offset: o };
}
