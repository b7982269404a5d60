/**
 * A property test of the guardian (issue 27, "Done when"): random rules, shares, price paths,
 * knockouts, hand sells (whole and partial), pauses, limits and restarts, on a real store and
 * the sandbox exchange over HTTP (property-harness.ts). After every step, checked against the
 * exchange's own signed GET /orders and the store:
 * - once: at most one guardian SELL (bdg-<ruleId>-…) per rule, under the rule's stored id;
 * - called for: each SELL's rule fired on figures newer than the rule (item 2), its condition
 *   held on them, not while paused, and a knockout guard sells only while boosted contracts are
 *   held (item 3);
 * - explained: a rule disarmed "closed by hand" only after a hand sell of everything (item 4);
 *   a `limit` hold only once the filled closes reach the limit (item 6); every log row has its
 *   cause in the steps.
 * Seed: GUARD_PROPERTY_SEED (printed). Written to the semantics: it failed on the code
 * before them (items 2, 3, 4 and 5, each with its counterexample).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardSpec } from '../../../src/shared/ipc/contract.js';
import { dec } from '../../../src/shared/money.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import {
  armRule,
  exchangeOrders,
  heldNow,
  newScene,
  restart,
  sellByHand,
  setPrice,
  settle,
  type Scene,
} from './property-harness.js';

const SEED = Number(process.env.GUARD_PROPERTY_SEED ?? 27_027);
const RUNS = Number(process.env.GUARD_PROPERTY_RUNS ?? 20);
/** The items checked by the second property (GUARD_PROPERTY_ITEMS=2,3 to look at some). */
const ITEMS = new Set((process.env.GUARD_PROPERTY_ITEMS ?? '2,3,4,5,6,log').split(','));
/** What the issue adds to "once"; empty for the property that holds on main. */
type Items = ReadonlySet<string>;

type Step =
  | {
      do: 'arm';
      kind: 'stop_loss' | 'take_profit' | 'knockout';
      percent: string;
      share: number;
      k: number;
    }
  | { do: 'price'; to: string }
  | { do: 'sell'; contracts: number | 'all' }
  | { do: 'pause'; on: boolean }
  | { do: 'limit'; closes: number }
  | { do: 'restart' }
  | { do: 'sync' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    do: fc.constant('arm' as const),
    kind: fc.constantFrom('stop_loss' as const, 'take_profit' as const, 'knockout' as const),
    percent: fc.constantFrom('5', '10', '30', '60', '99.99'),
    share: fc.constantFrom(100, 50, 34),
    k: fc.constantFrom(1, 2),
  }),
  fc.record({
    do: fc.constant('price' as const),
    to: fc.constantFrom('0.20', '0.35', '0.45', '0.55', '0.70', '0.85'),
  }),
  fc.record({
    do: fc.constant('sell' as const),
    contracts: fc.constantFrom(1 as const, 2 as const, 'all' as const),
  }),
  fc.record({ do: fc.constant('pause' as const), on: fc.boolean() }),
  fc.record({ do: fc.constant('limit' as const), closes: fc.constantFrom(0, 1, 2, 10) }),
  fc.constant({ do: 'restart' as const }),
  fc.constant({ do: 'sync' as const }),
);

let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20, rateLimits: false });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'betdesk-guard-prop-'));
});
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Model {
  /** Wall-clock spans while Pause guardians was on. */
  paused: { from: number; to: number | null }[];
  /** Rules disarmed by a hand sell of everything held. */
  wholeSells: { at: number }[];
  armed: Set<number>;
  disarmable: Set<number>;
}

function condition(
  spec: GuardSpec,
  o: { indexPrice: string | null; pnlPercent: string | null },
  knockout: string | null,
): boolean {
  if (spec.kind === 'stop_loss')
    return o.pnlPercent !== null && dec(o.pnlPercent).lte(dec(spec.percent!).neg());
  if (spec.kind === 'take_profit')
    return o.pnlPercent !== null && dec(o.pnlPercent).gte(spec.percent!);
  if (spec.kind === 'knockout') {
    if (o.indexPrice === null || knockout === null) return false;
    const i = dec(o.indexPrice);
    return i.minus(knockout).times(100).lte(dec(spec.percent!).times(i));
  }
  return true;
}

async function check(
  items: Items,
  s: Scene,
  m: Model,
  knockout: string | null,
  knockedOut: boolean,
): Promise<void> {
  const { store, accountId } = s.desk;
  const orders = (await exchangeOrders(s)).filter(
    (o) => o.side === 'SELL' && o.clientOrderId.startsWith('bdg-'),
  );
  const byRule = new Map<number, typeof orders>();
  for (const o of orders) {
    const id = Number(o.clientOrderId.split('-')[1]);
    byRule.set(id, [...(byRule.get(id) ?? []), o]);
  }
  for (const [id, sells] of byRule) {
    const rule = store.guards.get(id)!;
    expect(sells, `rule ${id}: one SELL at most`).toHaveLength(1);
    expect(sells[0]!.clientOrderId, `rule ${id}: its stored id`).toBe(rule.clientOrderId);
    const fired = store.guards.logPage(accountId, { ruleId: id, event: 'fired', limit: 10 }).rows;
    expect(fired, `rule ${id}: fired once`).toHaveLength(1);
    const f = fired[0]!;
    const obs = f.observation!;
    if (items.has('2')) {
      expect(
        obs.at,
        `rule ${id} (${rule.spec.kind} ${rule.spec.percent}): fired on figures read before it was armed`,
      ).toBeGreaterThan(rule.armedAt);
    }
    expect(
      condition(rule.spec, obs, knockout),
      `rule ${id}: its condition held on what it fired on`,
    ).toBe(true);
    expect(
      m.paused.some((p) => f.at > p.from && (p.to === null || f.at < p.to)),
      `rule ${id}: fired while paused`,
    ).toBe(false);
    if (items.has('3') && rule.spec.kind === 'knockout') {
      // It sells while boosted contracts are held (the index above their knockout), and no
      // more than it takes to close them: the 6 older unboosted go first, as the exchange sells.
      expect(
        knockout !== null && obs.indexPrice !== null && dec(obs.indexPrice).gt(knockout),
        `knockout guard ${id}: fired at or past the knockout, with nothing boosted left to save`,
      ).toBe(true);
      expect(sells[0]!.contracts, `knockout guard ${id}: sold more than held`).toBeLessThanOrEqual(
        10,
      );
    }
  }
  for (const r of [...store.guards.live(accountId), ...store.guards.recent(accountId, 100)]) {
    if (items.has('4') && r.state === 'disarmed' && r.reason === 'closed by hand') {
      expect(m.disarmable.has(r.id), `rule ${r.id}: disarmed by a partial sell by hand`).toBe(true);
    }
    if (items.has('log') && r.state === 'ended') {
      const held = await heldNow(s);
      const gone = held.total === 0 || (r.spec.kind === 'knockout' && knockedOut);
      expect(gone, `rule ${r.id} ended while its position is still held`).toBe(true);
    }
    if (items.has('6') && r.hold === 'limit') {
      const limit = s.desk.book.settings(accountId).limits.closes;
      const filled = orders.filter((o) => o.status === 'FILLED' && o.contracts > 0).length;
      expect(
        filled,
        `rule ${r.id} held by the limit of ${limit} with ${filled} filled closes`,
      ).toBeGreaterThanOrEqual(limit);
    }
    if (!m.armed.has(r.id)) throw new Error(`rule ${r.id} was never armed by a step`);
  }
  for (const row of store.guards.logPage(accountId, { limit: 1000 }).rows) {
    if (row.event === 'fired' || row.event === 'sent' || row.event === 'filled') {
      expect(
        byRule.has(row.ruleId),
        `log ${row.event} of rule ${row.ruleId} without its SELL`,
      ).toBe(true);
    }
    if (!m.armed.has(row.ruleId)) throw new Error(`log row of rule ${row.ruleId}, never armed`);
  }
}

async function run(items: Items, steps: Step[], n: number): Promise<void> {
  const s = await newScene(sandbox, path.join(dir, `run-${n}.sqlite`), n);
  const m: Model = { paused: [], wholeSells: [], armed: new Set(), disarmable: new Set() };
  const knockout =
    s.desk.store.positions.list(s.desk.accountId).find((p) => p.boosted)?.knockout ?? null;
  let knockedOut = false;
  try {
    for (const [i, st] of steps.entries()) {
      switch (st.do) {
        case 'arm': {
          const spec: GuardSpec = {
            kind: st.kind,
            percent: st.percent,
            sharePercent: st.share,
            confirmations: st.k,
          };
          // Item 5: an identical rule armed on the position is refused.
          const twin = s.desk.store.guards
            .live(s.desk.accountId)
            .some(
              (r) =>
                r.state === 'armed' &&
                r.spec.kind === spec.kind &&
                dec(r.spec.percent ?? '0').eq(spec.percent ?? '0') &&
                r.spec.sharePercent === spec.sharePercent &&
                r.spec.confirmations === spec.confirmations,
            );
          try {
            const r = armRule(s, spec, true);
            m.armed.add(r.id);
            if (items.has('5') && twin) {
              throw new Error(`after step ${i + 1}: an identical ${st.kind} was armed twice`);
            }
          } catch (e) {
            // Refused in words: fine; the harness's own finding is not.
            if (e instanceof Error && e.message.startsWith('after step')) throw e;
          }
          break;
        }
        case 'price': {
          const r = await setPrice(sandbox, s.fixture, st.to);
          if ((r as { knockedOut?: number }).knockedOut) knockedOut = true;
          break;
        }
        case 'sell': {
          const held = (await heldNow(s)).total;
          if (held === 0) break;
          const qty = st.contracts === 'all' ? held : Math.min(held, st.contracts);
          if (qty === held)
            for (const r of s.desk.store.guards.live(s.desk.accountId)) m.disarmable.add(r.id);
          await sellByHand(s, qty);
          break;
        }
        case 'pause':
          // A span counts strictly inside: the paused flag is written between its two ends.
          if (!st.on) for (const p of m.paused) p.to ??= Date.now();
          s.desk.book.setPaused(st.on);
          if (st.on && !m.paused.some((p) => p.to === null)) {
            m.paused.push({ from: Date.now(), to: null });
          }
          s.desk.guardian.evaluate();
          break;
        case 'limit':
          s.desk.book.configure(s.desk.accountId, {
            limits: { closes: st.closes, contracts: null, stake: null },
            defaults: [],
          });
          break;
        case 'restart':
          await restart(s);
          break;
        case 'sync':
          break;
      }
      await settle(s);
      try {
        await check(items, s, m, knockout, knockedOut);
      } catch (e) {
        // The readable counterexample: the steps up to the one after which a check failed.
        const upTo = steps.slice(0, i + 1).map((x) => JSON.stringify(x));
        throw new Error(`after step ${i + 1}:\n  ${upTo.join('\n  ')}\n${String(e)}`, { cause: e });
      }
    }
  } finally {
    await s.desk.close();
  }
}

let n = 0;
function property(items: Items): Promise<void> {
  console.log(`guardian property: seed ${SEED} (GUARD_PROPERTY_SEED), ${RUNS} runs`);
  return fc.assert(
    fc.asyncProperty(fc.array(stepArb, { minLength: 10, maxLength: 20 }), (steps) =>
      run(items, steps, n++),
    ),
    { seed: SEED, numRuns: RUNS },
  );
}

describe('the guardian, as a property', () => {
  it('never sells twice, only under a rule’s own id, on its condition, never while paused', async () => {
    await property(new Set());
  }, 600_000);

  it('sells only what the rules call for and explains every rule (issue 27)', async () => {
    await property(ITEMS);
  }, 600_000);
});
