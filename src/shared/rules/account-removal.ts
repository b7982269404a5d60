/**
 * What removing an account deletes, in counts and in the words the app's confirmation and the
 * CLI both say (docs/accounts.md, "Removing an account"): the armed guardian rules first (a real
 * position left unprotected on the exchange), then everything else the store keeps of it.
 */

/** How much of each kind the store holds for one account (main's AccountRemovalRepo). */
export interface RemovalCounts {
  /** Guardian rules armed or closing now: their positions stay open on the exchange. */
  armedRules: number;
  /** Guardian rules that ended (closed, failed, disarmed). */
  otherRules: number;
  guardLogLines: number;
  /** Exchange orders, and requests the exchange never answered. */
  orders: number;
  settlements: number;
  positions: number;
  alerts: number;
  /** Outcomes whose index prices were recorded, and the points and summaries kept of them. */
  priceSeries: number;
  pricePoints: number;
  equityPoints: number;
  fixtures: number;
}

const countFormat = new Intl.NumberFormat('en-US');

function counted(n: number, one: string, many: string = `${one}s`): string {
  return `${countFormat.format(n)} ${n === 1 ? one : many}`;
}

/** The armed rules' sentence: what their removal leaves unwatched. */
export function armedRulesWords(armed: number): string {
  return armed === 0
    ? 'No guardian rule is armed on it.'
    : `${counted(armed, 'armed guardian rule')} will be deleted: ${armed === 1 ? 'its position stays' : 'their positions stay'} open on the exchange, unprotected.`;
}

/**
 * The confirmation's words. `counts` null (they could not be read): every kind, without counts.
 */
export function removalWords(label: string, counts: RemovalCounts | null): string {
  const lead = `Removing ${label} deletes what Betdesk keeps of it on this computer.`;
  const tail =
    'its alert settings, and its secret in the system keychain. The exchange keeps its own records of the account.';
  if (counts === null) {
    return `${lead} Any armed guardian rules are deleted with it (their positions stay open on the exchange, unprotected), and its orders, settlements, positions, alerts, guardian log, recorded prices, equity points, fixtures, ${tail}`;
  }
  const parts = [
    counted(counts.orders, 'order'),
    counted(counts.settlements, 'settlement'),
    counted(counts.positions, 'position'),
    counted(counts.alerts, 'alert'),
    `${counted(counts.otherRules, 'ended guardian rule')} and ${counted(counts.guardLogLines, 'guardian log line')}`,
    `${counted(counts.pricePoints, 'recorded price')} of ${counted(counts.priceSeries, 'outcome')}`,
    counted(counts.equityPoints, 'equity point'),
    counted(counts.fixtures, 'fixture'),
  ];
  return `${lead} ${armedRulesWords(counts.armedRules)} Also deleted: ${parts.join(', ')}, ${tail}`;
}
