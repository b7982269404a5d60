/** The sentences knockout alerts show people. */
import type { Dec } from '../../shared/money.js';
import { percent } from './distance.js';

function bet(outcome: string, fixture: string | undefined): string {
  return fixture === undefined ? `on ${outcome}` : `on ${outcome} (${fixture})`;
}

/**
 * A position near its knockout, on its index price (the price the exchange knocks out on):
 * "Your boosted bet on NEW (MUN v NEW) is 4.2% above its knockout: index price 0.0396,
 * knockout 0.0379, inside the 5% alert level."
 */
export function nearMessage(a: {
  outcome: string;
  fixture: string | undefined;
  /** (index − knockout) / index, above 0. */
  distance: Dec;
  level: Dec;
  index: string;
  knockout: string;
}): string {
  return (
    `Your boosted bet ${bet(a.outcome, a.fixture)} is ${percent(a.distance)} above its knockout: ` +
    `index price ${a.index}, knockout ${a.knockout}, inside the ${percent(a.level)} alert level.`
  );
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
