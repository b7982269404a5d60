/**
 * How a realized P&L or a cost basis in micro-dollars is written at the edges (the bridge, the
 * CSV): exact, and with at least the cents, the way the exchange writes its amounts.
 */
import { dec, fromMicros } from '../../shared/money.js';

/** "12.30", "-0.05", "1.234567": exact, never fewer than two places. */
export function moneyText(micros: number): string {
  const s = fromMicros(micros);
  const places = s.split('.')[1]?.length ?? 0;
  return places >= 2 ? s : dec(s).toFixed(2);
}
