/**
 * Which fields each rule kind takes: exactly one of percent, price or minutes fits each kind
 * (docs/guardians.md). Arming and the account's defaults refuse the others in words.
 */
import type { GuardKind, GuardSpec } from '../../shared/ipc/contract.js';
import { dec } from '../../shared/money.js';
import { Refusal } from '../refusal.js';
import { kindName } from './messages.js';

type Field = 'percent' | 'price' | 'minutes';

const FITS: Record<GuardKind, readonly Field[]> = {
  knockout: ['percent'],
  stop_loss: ['percent', 'price'],
  take_profit: ['percent', 'price'],
  trailing_stop: ['percent'],
  time_exit: ['minutes'],
};

const ASKS: Record<GuardKind, string> = {
  knockout: 'a percentage of the index price from the knockout (percent)',
  stop_loss: 'a P&L percentage (percent) or a closing price (price)',
  take_profit: 'a P&L percentage (percent) or a closing price (price)',
  trailing_stop: 'a percentage below the best closing price (percent)',
  time_exit: 'minutes before kick-off (minutes)',
};

/** Refuses (Refusal invalid-input) a spec whose fields do not fit its kind, in words. */
export function checkSpec(spec: GuardSpec): void {
  const name = kindName(spec.kind);
  const given = (['percent', 'price', 'minutes'] as const).filter((f) => spec[f] !== undefined);
  const fits = FITS[spec.kind];
  const wrong = given.filter((f) => !fits.includes(f));
  if (wrong.length > 0 || given.length !== 1) {
    throw new Refusal(
      'invalid-input',
      `A ${name} takes exactly one figure: ${ASKS[spec.kind]}` +
        (wrong.length > 0 ? `, not ${wrong.join(' or ')}.` : '.'),
    );
  }
  if (spec.percent !== undefined) {
    const p = dec(spec.percent);
    if (p.lte(0)) throw new Refusal('invalid-input', `A ${name} needs a percentage above 0.`);
    if (spec.kind !== 'stop_loss' && spec.kind !== 'take_profit' && p.gte(100)) {
      throw new Refusal('invalid-input', `A ${name} needs a percentage below 100.`);
    }
  }
  if (spec.price !== undefined && dec(spec.price).lte(0)) {
    throw new Refusal('invalid-input', `A ${name} needs a closing price above 0, like 0.35.`);
  }
}
