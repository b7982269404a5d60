/** The history, its exports and its resync in words, so no state rests on colour alone. */
import type { SettlementType } from '../../../shared/api/schemas.js';
import type {
  ExportKind,
  ExportProgress,
  HistorySyncProgress,
} from '../../../shared/ipc/contract.js';
import { count } from './format.js';

/**
 * The settlement types in the exchange's order (SETTLEMENT_TYPES). Spelled here because the
 * schema module that holds them would bring the schema library into the page.
 */
export const SETTLEMENT_TYPE_ORDER = [
  'CLOSED',
  'KNOCKED_OUT',
  'SETTLEMENT',
] as const satisfies readonly SettlementType[];

/** How a settlement ended (docs/api.md 2.7). */
export const TYPE_WORDS: Record<SettlementType, string> = {
  CLOSED: 'Closed',
  KNOCKED_OUT: 'Knocked out',
  SETTLEMENT: 'Settled',
};

/** What each type means, for titles and the detail. */
export const TYPE_MEANINGS: Record<SettlementType, string> = {
  CLOSED: 'Sold before the game resolved.',
  KNOCKED_OUT: 'A boosted bet reached its knockout price.',
  SETTLEMENT: 'The game resolved while the bet was held: it paid out, or expired worthless.',
};

/** The sort menu's words; the P&L order puts settled bets (no P&L) last. */
export const SORT_WORDS = { time: 'Newest first', pnl: 'Largest P&L first' } as const;

const KIND_WORDS: Record<ExportKind, string> = { settlements: 'settlements', orders: 'orders' };

/** "0x12ab34…9f0e": enough to tell hashes apart; the whole one is its title. */
export function shortHash(tx: string): string {
  return tx.length > 14 ? `${tx.slice(0, 8)}…${tx.slice(-4)}` : tx;
}

function rows(n: number): string {
  return `${count(n)} row${n === 1 ? '' : 's'}`;
}

/** An export where it stands: one sentence for the progress line and the live region. */
export function exportSentence(
  job: Pick<ExportProgress, 'kind' | 'state' | 'rows' | 'total' | 'fileName' | 'message'> & {
    file?: string | null;
    download?: string | null;
  },
): string {
  const what = KIND_WORDS[job.kind];
  switch (job.state) {
    case 'waiting':
      return job.download
        ? `Exporting ${what}: waiting for the browser to start the download of ${job.fileName}…`
        : `Exporting ${what}: starting…`;
    case 'running':
      return `Exporting ${what}: ${count(job.rows)} of ${rows(job.total)} written.`;
    case 'done':
      return job.file
        ? `Export finished: ${rows(job.rows)} written to ${job.file}.`
        : `Export finished: ${rows(job.rows)} sent to your downloads as ${job.fileName}.`;
    case 'canceled':
      return `Export canceled: no file was left behind.`;
    case 'failed':
      return `Export failed: ${(job.message ?? 'the file could not be written').replace(/\.\s*$/, '')}. No file was left behind.`;
  }
}

/** A history sweep where it stands, for the progress line. */
export function syncSentence(p: HistorySyncProgress): string {
  const what = p.reason === 'first-sync' ? 'First sync of this account’s history' : 'Resync';
  const pages =
    p.estimatedPages > 0
      ? `page ${count(p.pages)} of about ${count(p.estimatedPages)}`
      : `${count(p.pages)} page${p.pages === 1 ? '' : 's'}`;
  const added = `${count(p.added)} new record${p.added === 1 ? '' : 's'}`;
  const why = p.message ? `: ${p.message.replace(/\.\s*$/, '')}` : '';
  switch (p.state) {
    case 'running':
      return `${what}: ${pages} fetched, ${added} so far.`;
    case 'done':
      return `${what} finished: ${count(p.pages)} page${p.pages === 1 ? '' : 's'} fetched, ${added}.`;
    case 'failed':
      return `${what} failed${why}. Nothing stored was removed; resync again to finish it.`;
    case 'interrupted':
      return `${what} was interrupted${why}. What was fetched is kept; resync again to finish it.`;
  }
}
