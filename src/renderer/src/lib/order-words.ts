/** An order row's life in words, for the slip and the blotter: never colour alone. */
import type { OrderRow, OrderRowStatus } from '../../../shared/ipc/contract.js';
import { ORDER_STATUS_WORDS } from '../../../shared/rules/status.js';
import { count, money } from './format.js';

export function statusWords(status: OrderRowStatus): string {
  return ORDER_STATUS_WORDS[status];
}

/** The status and what it means for the user, in one or two sentences. */
export function orderSentence(
  row: Pick<OrderRow, 'status' | 'side' | 'contracts' | 'entryPrice' | 'proceeds' | 'error'> | null,
  status: OrderRowStatus,
): string {
  const why = row?.error?.message.replace(/\.\s*$/, '');
  switch (status) {
    case 'SENDING':
      return 'Sending… the order is on its way to the exchange.';
    case 'CHECKING':
      return 'Checking… the answer was lost on the way, so Betdesk is asking the exchange what became of this order. It has not failed: do not place it again.';
    case 'CLAIMED':
    case 'SUBMITTED':
    case 'OPEN':
      return `${ORDER_STATUS_WORDS[status]}: the exchange accepted the order and is filling it.`;
    case 'FILLED': {
      const n = row?.contracts;
      const at = row?.entryPrice ? ` at ${row.entryPrice}` : '';
      const what =
        n === null || n === undefined ? 'the order' : `${count(n)} contract${n === 1 ? '' : 's'}`;
      if (row?.side === 'SELL') {
        const paid = row.proceeds ? `, ${money(row.proceeds)} paid out` : '';
        return `Filled: sold ${what}${at}${paid}.`;
      }
      return `Filled: bought ${what}${at}.`;
    }
    case 'CANCELED':
    case 'EXPIRED':
      return `${ORDER_STATUS_WORDS[status]}: ${why ?? 'the market moved before it could fill on its terms'}. Nothing was bought or sold.`;
    case 'REJECTED':
    case 'FAILED':
      return `${ORDER_STATUS_WORDS[status]}: ${why ?? 'the exchange refused the order'}. Nothing was bought or sold.`;
    case 'NOT_PLACED':
      return `Not placed: ${why ?? 'the exchange did not take the order'}. Nothing was bought or sold.`;
  }
}
