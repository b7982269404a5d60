/**
 * The Portfolio screen's figures in words, so no state rests on a colour or a chart alone:
 * unknown P&L left out, the largest fixture's share, the equity curve's change over the period.
 * Every amount goes through the money module (decimal strings), never through a float.
 */
import type {
  EquityPeriod,
  EquitySeries,
  ExposureGroup,
  PnlSource,
  PortfolioExposure,
} from '../../../../shared/ipc/contract.js';
import { cmp, dec, sub } from '../../../../shared/money.js';
import { count, money, signedMoney } from '../../lib/format.js';

/** "1 bet with unknown P&L not counted"; null when there is none. */
export function unknownWords(n: number): string | null {
  if (n <= 0) return null;
  return `${count(n)} bet${n === 1 ? '' : 's'} with unknown P&L not counted`;
}

/** A share ("0.3812") as a whole percentage: "38 %". */
export function wholePercent(share: string): string {
  return `${dec(share).times(100).toFixed(0)} %`;
}

/** "38 % of the money at risk is on ARS v CHE"; null when nothing is at risk. */
export function largestFixtureWords(group: ExposureGroup | null): string | null {
  if (!group || cmp(group.atRisk, 0) <= 0) return null;
  return `${wholePercent(group.share)} of the money at risk is on ${group.label}`;
}

/** Boosted positions whose index is within 10 % of the knockout, and their stake. */
export function nearKnockoutWords(near: PortfolioExposure['nearKnockout']): string {
  if (near.positions === 0) return 'none within 10 % of its knockout';
  const n = near.positions;
  return `${money(near.atRisk)} on ${count(n)} boosted position${n === 1 ? '' : 's'} within 10 % of the knockout`;
}

/**
 * A row of an account other than the active one: Positions and History show the active
 * account alone, so opening it switches account first.
 */
export const SWITCHES = '(not the active account: opening switches to it)';

/** Where a realized P&L comes from (docs/pnl.md). */
export const SOURCE_WORDS: Record<PnlSource, string> = {
  exchange: 'reported by the exchange',
  orders: 'computed from your orders',
  unknown: 'P&L unknown',
};

export const PERIOD_WORDS: Record<EquityPeriod, string> = {
  day: 'the last day',
  week: 'the last week',
  month: 'the last month',
  year: 'the last year',
  all: 'all time',
};

const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const hourFormat = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

/** A point's time as finely as the points are spaced: with the hour below a day, else a date. */
/** The periods' lengths, as main reads them (src/main/portfolio/reads.ts). */
const PERIOD_MS: Record<Exclude<EquityPeriod, 'all'>, number> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000,
};

/**
 * What the curve spans in words: "over the last month", or "since 12:45" when the accounts'
 * first record is younger than the period and the curve starts there.
 */
export function spanWords(series: EquitySeries): string {
  const { period } = series;
  if (period !== 'all' && series.to - series.from < PERIOD_MS[period] - 60_000) {
    return `since ${pointTime(series.stepMs, series.from)}`;
  }
  return `over ${PERIOD_WORDS[period]}`;
}

export function pointTime(stepMs: number, ms: number): string {
  return stepMs < 86_400_000 ? hourFormat.format(ms) : dayFormat.format(ms);
}

/**
 * The equity curve as a sentence, the chart's text alternative: where it started and ended over
 * the period, by how much it moved, and its lowest and highest points.
 */
export function equityWords(series: EquitySeries): string {
  const first = series.points[0];
  const last = series.points.at(-1);
  const over = spanWords(series);
  if (!first || !last) return `No equity recorded ${over}.`;
  let low = first;
  let high = first;
  for (const p of series.points) {
    if (cmp(p.equity, low.equity) < 0) low = p;
    if (cmp(p.equity, high.equity) > 0) high = p;
  }
  const change = sub(last.equity, first.equity);
  const sign = cmp(change, 0);
  const moved =
    sign === 0 ? 'unchanged' : `${sign > 0 ? 'up' : 'down'} ${money(dec(change).abs().toFixed(2))}`;
  const at = (ms: number) => pointTime(series.stepMs, ms);
  return (
    `Equity ${over}: ${moved}, from ${signedMoney(first.equity)} (${at(first.at)}) to ` +
    `${signedMoney(last.equity)} (${at(last.at)}); lowest ${signedMoney(low.equity)} ` +
    `(${at(low.at)}), highest ${signedMoney(high.equity)} (${at(high.at)}).`
  );
}
