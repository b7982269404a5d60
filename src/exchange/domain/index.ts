/** The sandbox exchange's domain: create it with createDomain and talk to it through ExchangeDomain. */
import type { DomainOptions, ExchangeDomain } from './contract.js';
import { SandboxExchange } from './exchange.js';

export type { DomainOptions, ExchangeDomain } from './contract.js';
export { SandboxExchange } from './exchange.js';
export { PRICING_DOC } from './docs.js';

/** Creates the domain; with `dataFile` it reloads the state kept there (and processes orders
 *  that were still SUBMITTED when the previous process stopped). */
export function createDomain(opts: DomainOptions): Promise<ExchangeDomain> {
  return Promise.resolve(new SandboxExchange(opts));
}
