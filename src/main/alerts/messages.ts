/** The sentences knockout alerts show people. */
import type { Dec } from '../../shared/money.js';
import { percent } from './distance.js';

function bet(outcome: string, fixture: string | undefined): string {
  return fixture === undefined ? `on ${outcome}` : `on ${outcome} (${fixture})`;
}

export function nearMessage(a: {
  outcome: string;
  fixture: string | undefined;
  distance: Dec;
  level: Dec;
  knockout: string;
}): string {
  const where = a.distance.lte(0)
    ? `has reached its knockout price of ${a.knockout}`
    : `is ${percent(a.distance)} above its knockout price of ${a.knockout}`;
  return `Your boosted bet ${bet(a.outcome, a.fixture)} ${where}, inside the ${percent(a.level)} alert level.`;
}

export function knockedOutMessage(a: {
  outcome: string;
  fixture: string | undefined;
  contracts: number;
  /** The index price that knocked it out, when the settlement row says. */
  price?: string;
  knockout?: string;
}): string {
  const lost = `${a.contracts} contract${a.contracts === 1 ? '' : 's'} lost`;
  const at =
    a.price !== undefined
      ? ` at an index price of ${a.price}`
      : a.knockout !== undefined
        ? ` at its knockout price of ${a.knockout}`
        : '';
  return `Your boosted bet ${bet(a.outcome, a.fixture)} was knocked out: ${lost}${at}.`;
}
