/** quote and order: checked here first, then sent through the trading service. */
import {
  parseOrderType,
  validateBet,
  validateClientOrderId,
  type BetInput,
  type OrderOutcome,
} from '../../trading/index.js';
import { parseOptions, required, str, type OptionSpec, type Parsed } from '../args.js';
import { openCommandContext } from '../context.js';
import { EXIT, type CliIO, type Output } from '../output.js';

const BET: OptionSpec = {
  contract: { type: 'string' },
  outcome: { type: 'string' },
  side: { type: 'string' },
  qty: { type: 'string' },
  unit: { type: 'string' },
  boost: { type: 'string' },
};
const ORDER: OptionSpec = {
  ...BET,
  type: { type: 'string' },
  'client-order-id': { type: 'string' },
};

function betOf(p: Parsed): BetInput {
  const bet: BetInput = {
    contractId: required(p, 'contract', 'the fixture id'),
    outcome: required(p, 'outcome', 'the team abbreviation'),
    side: required(p, 'side', 'BUY or SELL'),
    qty: required(p, 'qty', 'contracts or dollars'),
    unit: required(p, 'unit', 'BASE or QUOTE'),
    boost: str(p, 'boost'),
  };
  validateBet(bet); // a bad value is a usage error, found before anything is opened
  return bet;
}

export async function quoteCommand(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(args, BET);
  const bet = betOf(p);
  const ctx = await openCommandContext(p, io, out, { exchange: true });
  try {
    const q = await ctx.connection.trading.quote(bet);
    out.json(q);
    const cost = q.quote.cost !== undefined ? `, cost ${q.quote.cost}` : '';
    out.say(
      `Quote ${q.rfqId}: ${q.quote.contracts} contracts at ${q.quote.entryPrice}${cost}; live for ${Math.floor(q.expiresInMs() / 1000)} s more.`,
    );
    return EXIT.ok;
  } finally {
    await ctx.close();
  }
}

export async function orderCommand(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(args, ORDER);
  const bet = betOf(p);
  const type = parseOrderType(str(p, 'type'));
  const id = str(p, 'client-order-id');
  if (id !== undefined) validateClientOrderId(id);
  const ctx = await openCommandContext(p, io, out, { exchange: true });
  try {
    const outcome = await ctx.connection.trading.trade({
      ...bet,
      type,
      ...(id !== undefined ? { clientOrderId: id } : {}),
    });
    out.json(outcome);
    out.say(sentenceFor(outcome));
    return exitFor(outcome);
  } finally {
    await ctx.close();
  }
}

export function exitFor(o: OrderOutcome): number {
  if (o.status === 'FILLED') return EXIT.ok;
  if (o.status === 'UNKNOWN' || o.error?.code === 'NETWORK' || o.error?.code === 'TIMEOUT') {
    return EXIT.unknown;
  }
  return EXIT.exchange;
}

function sentenceFor(o: OrderOutcome): string {
  const id = `Order ${o.clientOrderId}`;
  const err = o.error ? ` (${o.error.code}): ${o.error.message}` : '';
  const warn = o.warning ? `\nWarning ${o.warning.code}: ${o.warning.message}` : '';
  if (o.status === 'FILLED' && o.order) {
    const money =
      o.order.side === 'SELL' ? `proceeds ${o.order.proceeds ?? '?'}` : `cost ${o.order.cost}`;
    return `${id} FILLED: ${o.order.side} ${o.order.contracts} ${o.order.outcome} at ${o.order.entryPrice}, ${money}.${warn}`;
  }
  if (o.status === 'NOT_PLACED') return `${id} was not placed${err}${warn}`;
  if (o.status === 'UNKNOWN') return `${id}: outcome unknown${err}${warn}`;
  return `${id} ${o.status}${err}${warn}`;
}
