/**
 * Paper mode: the sandbox exchange started in this process on 127.0.0.1 (a free port), its
 * state in `<dataDir>/paper-exchange.sqlite` so practice history survives a restart, and a
 * demo wallet with a trade key.
 *
 * The paper account is a row of the store (is_paper) holding the wallet and the key id, so its
 * orders, positions and settlements are cached like any other account's. The key's secret is
 * never written by Betdesk: the exchange derives it from the master secret in its own
 * `paper-exchange.sqlite.keys` file, and Betdesk holds it in memory only. The remembered key is
 * used again while the exchange still has it; otherwise a fresh one is made for the wallet.
 */
import { join } from 'node:path';
import type { RunningExchange } from '../../exchange/app.js';
import type { ApiKeyRecord, ExchangeDomain } from '../../exchange/domain/contract.js';
import type { Fixture } from '../../shared/api/schemas.js';
import type { Credentials } from '../client/index.js';
import type { Account, Store } from '../store/index.js';

import { PAPER_FILE } from '../data/file-names.js';

export { PAPER_FILE } from '../data/file-names.js';
const PAPER_LABEL = 'Paper (sandbox)';
const DAY_MS = 24 * 3600_000;
/** A new paper key lives a year; one expiring within a week is replaced. */
const KEY_LIFETIME_MS = 365 * DAY_MS;
const KEY_MARGIN_MS = 7 * DAY_MS;

export interface PaperExchange {
  readonly url: string;
  /** The paper account's row in the store. */
  readonly account: Account;
  /** The trade key; the secret lives in this object only. */
  readonly credentials: Credentials;
  /** The sandbox's control API, in process: what the practice panel drives. */
  readonly practice: PracticeControls;
  close(): Promise<void>;
}

/**
 * The sandbox's control calls (docs/sandbox.md, "The control API"), called in process.
 * Each throws the exchange's own refusal (an ApiError with its code and message) for a bad
 * contract, outcome or price.
 */
export interface PracticeControls {
  /** Sets an outcome's index price; boosted lots whose knockout it reaches are knocked out. */
  setPrice(contractId: string, outcome: string, indexPrice: string): { knockedOut: number };
  closeBetting(contractId: string): Fixture;
  /** Moves the kick-off to `minutes` from the exchange's now (a guardian's time exit). */
  kickoffIn(contractId: string, minutes: number): Fixture;
  /** `winner`: a team of the fixture, or DRAW. */
  resolve(contractId: string, winner: string): Fixture;
  /** The next POST /order is accepted (202) and then reverts on chain: REJECTED, -2024. */
  rejectNextOrder(): void;
}

export async function startPaper(dataDir: string, store: Store): Promise<PaperExchange> {
  // Loaded on first use: a live account never needs it, and startup need not wait for it.
  const { startExchange } = await import('../../exchange/app.js');
  const exchange: RunningExchange = await startExchange({
    host: '127.0.0.1',
    port: 0,
    dataFile: join(dataDir, PAPER_FILE),
    // No served documentation, and route schemas compiled when first called: a faster start.
    embedded: true,
  });
  try {
    const { account, key } = paperAccount(exchange.domain, exchange.url, store);
    const credentials: Credentials = { apiKey: key.apiKey, secret: key.secret };
    let closing: Promise<void> | undefined;
    const { domain, faults, publicRoutes } = exchange;
    return {
      url: exchange.url,
      account,
      credentials,
      practice: {
        setPrice: (contractId, outcome, indexPrice) =>
          domain.setPrice(contractId, outcome, indexPrice),
        closeBetting: (contractId) => domain.closeFixture(contractId),
        kickoffIn: (contractId, minutes) =>
          domain.setKickoff(contractId, domain.now() + minutes * 60_000),
        resolve: (contractId, winner) => domain.resolveFixture(contractId, winner),
        rejectNextOrder: () =>
          faults.set({ route: 'POST /order', mode: 'revert', count: 1 }, publicRoutes),
      },
      close: () => (closing ??= exchange.close()),
    };
  } catch (err) {
    await exchange.close();
    throw err;
  }
}

/**
 * Paper mode for the app: the paper exchange is started the first time paper is used and kept
 * until close(), across switches to live accounts and back.
 */
export class PaperMode {
  readonly #dataDir: string;
  readonly #store: Store;
  #exchange: Promise<PaperExchange> | undefined;

  constructor(dataDir: string, store: Store) {
    this.#dataDir = dataDir;
    this.#store = store;
  }

  /** The running paper exchange, started on first use. */
  exchange(): Promise<PaperExchange> {
    this.#exchange ??= startPaper(this.#dataDir, this.#store);
    return this.#exchange;
  }

  /** The practice controls; undefined while paper mode has never started (or failed to). */
  async controls(): Promise<PracticeControls | undefined> {
    return (await this.#started())?.practice;
  }

  async close(): Promise<void> {
    await (await this.#started())?.close();
  }

  #started(): Promise<PaperExchange | undefined> {
    return this.#exchange?.catch(() => undefined) ?? Promise.resolve(undefined);
  }
}

/** The paper row of the store, brought in line with the exchange, and its trade key. */
function paperAccount(
  domain: ExchangeDomain,
  url: string,
  store: Store,
): { account: Account; key: ApiKeyRecord } {
  let row = store.accounts.list().find((a) => a.isPaper);
  let key: ApiKeyRecord | undefined;
  if (row?.wallet) {
    key = reusableKey(domain, row) ?? newKey(domain, row.wallet);
    // The exchange lost the wallet (its file was removed): the cached history is of a wallet
    // that no longer exists, so it goes with the row.
    if (key === undefined) {
      store.accounts.remove(row.id);
      row = undefined;
    }
  } else if (row) {
    store.accounts.remove(row.id);
    row = undefined;
  }
  if (row === undefined || key === undefined) {
    const wallet = domain.createWallet();
    key = newKey(domain, wallet);
    if (key === undefined) throw new Error('The paper exchange refused a key for a new wallet.');
    const created = store.accounts.create({
      label: freeLabel(store, wallet),
      baseUrl: url,
      apiKey: key.apiKey,
      permission: 'trade',
      wallet,
      isPaper: true,
    });
    return { account: created, key };
  }
  const updated =
    store.accounts.update(row.id, { baseUrl: url, apiKey: key.apiKey, permission: 'trade' }) ?? row;
  return { account: updated, key };
}

function reusableKey(domain: ExchangeDomain, row: Account): ApiKeyRecord | undefined {
  const rec = domain.getKey(row.apiKey);
  if (!rec || rec.wallet !== row.wallet || rec.permission !== 'trade' || !rec.grantActive) {
    return undefined;
  }
  return (rec.expiresAt ?? 0) > domain.now() + KEY_MARGIN_MS ? rec : undefined;
}

/** A trade key for the wallet; undefined when the exchange does not know the wallet. */
function newKey(domain: ExchangeDomain, wallet: string): ApiKeyRecord | undefined {
  try {
    return domain.createKey({
      wallet,
      permission: 'trade',
      expiresAt: domain.now() + KEY_LIFETIME_MS,
    });
  } catch {
    return undefined;
  }
}

function freeLabel(store: Store, wallet: string): string {
  return store.accounts.getByLabel(PAPER_LABEL)
    ? `${PAPER_LABEL} ${wallet.slice(-6)}`
    : PAPER_LABEL;
}
