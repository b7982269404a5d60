/** The history, its exports and its resync in words, so no state rests on colour alone. */
import type { SettlementType } from '../../../shared/api/schemas.js';
import type {
  ExportKind,
  ExportProgress,
  HistorySummary,
  HistorySyncProgress,
  PnlSource,
  RealizedWorking,
} from '../../../shared/ipc/contract.js';
import { dec } from '../../../shared/money.js';
import { count, money, settledTime } from './format.js';

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

/** The sort menu's words; the P&L order puts rows whose P&L is unknown last. */
export const SORT_WORDS = { time: 'Newest first', pnl: 'Largest realized P&L first' } as const;

/**
 * Where a realized P&L comes from (docs/pnl.md), so the source never rests on colour: a mark,
 * `short` words for the list's column, and `long` ones for a sentence ("P&L from the exchange’s
 * figures": a close's or knockout's own P&L, or a payout less the exchange's cost basis).
 */
export const PNL_SOURCE_WORDS: Record<PnlSource, { mark: string; short: string; long: string }> = {
  exchange: { mark: '◆', short: 'exchange', long: 'from the exchange’s figures' },
  orders: { mark: 'Σ', short: 'your orders', long: 'computed from your orders' },
  unknown: { mark: '?', short: 'unknown', long: 'unknown, and not counted in the totals' },
};

/**
 * A row's source in one sentence, with its note (why it is unknown, or how it disagrees with
 * the exchange): the list's title and description of the cell.
 */
export function pnlSourceSentence(source: PnlSource, note: string | null): string {
  const base = `P&L ${PNL_SOURCE_WORDS[source].long}`;
  return note ? `${base}: ${note}` : `${base}.`;
}

/** The exchange's cost basis is shown as a disagreement past this (docs/pnl.md). */
const CENT = '0.01';

/**
 * How the orders' cost basis compares with the last one the exchange reported, in one sentence:
 * a disagreement beyond a cent, agreement within it, or that the exchange never reported one.
 * When the exchange's is the figure (basisSource), the orders are the check, and the words say so.
 */
export function basisComparison(
  w: Pick<
    RealizedWorking,
    'basisSource' | 'exchangeCostBasis' | 'exchangeCostBasisAt' | 'difference'
  >,
): { words: string; disagrees: boolean } {
  if (w.exchangeCostBasis === null) {
    return {
      words: 'The exchange never reported a cost basis for this position to Betdesk.',
      disagrees: false,
    };
  }
  const when =
    w.exchangeCostBasisAt === null ? '' : ` (read ${settledTime(w.exchangeCostBasisAt)})`;
  const used = w.basisSource === 'exchange';
  const reported = used
    ? `The exchange’s cost basis, ${money(w.exchangeCostBasis)}${when},`
    : `The exchange’s last cost basis, ${money(w.exchangeCostBasis)}${when},`;
  if (w.difference === null) {
    return {
      words: used
        ? `${reported} is the figure; your orders cannot check it.`
        : `${reported} was reported.`,
      disagrees: false,
    };
  }
  const diff = dec(w.difference);
  if (diff.abs().gt(CENT)) {
    const way = diff.isNegative() ? 'less' : 'more';
    return {
      words:
        `${reported} disagrees: ${used ? 'your orders give' : 'Betdesk’s basis is'} ` +
        `${money(diff.abs().toString())} ${way}. ` +
        (used
          ? 'The exchange’s figure stands; the difference is logged.'
          : 'The figure from your orders stands; the difference is logged.'),
      disagrees: true,
    };
  }
  const agrees = diff.isZero() ? 'agrees' : 'agrees to within a cent';
  return {
    words: used ? `${reported} ${agrees} with your orders.` : `${reported} ${agrees}.`,
    disagrees: false,
  };
}

/** "Working out the P&L of past bets: 40,000 of 120,000", for the progress line. */
export function workingSentence(w: NonNullable<HistorySummary['working']>): string {
  return `Working out the P&L of past bets: ${count(w.done)} of ${count(w.total)}.`;
}

/** "2 bets with unknown P&L, not counted". */
export function unknownSentence(n: number): string {
  return `${count(n)} bet${n === 1 ? '' : 's'} with unknown P&L, not counted`;
}

/** What an export is of, in words: "settlements", "guardian log". */
export const KIND_WORDS: Record<ExportKind, string> = {
  settlements: 'settlements',
  orders: 'orders',
  guards: 'guardian log',
};

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
      return `${what} failed${why}. Nothing stored was removed; it carries on where it stopped when sync retries.`;
    case 'interrupted':
      return `${what} was interrupted${why}. What was fetched is kept; it carries on where it stopped when this account syncs again.`;
  }
}

/** "Method: …." with one full stop: main's words of the method already end a sentence. */
export function methodSentence(method: string): string {
  const text = method.trim();
  return `Method: ${/[.!?]$/.test(text) ? text : `${text}.`}`;
}
