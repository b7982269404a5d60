/**
 * Exactly once across crashes (docs/guardians.md): a child process runs the guardian of a
 * sandbox account on a real store, with a stop loss whose condition holds, and is killed with
 * SIGKILL where a close is most fragile:
 * - after the claim, before the order intent (the guardian has called the trading service);
 * - after the intent, before the send (the client was about to POST /order);
 * - after the send, before the answer (the sandbox holds the answer of POST /order).
 * A second child on the same store then finishes what the first began. The exchange must hold
 * ONE close (a SELL of the whole position, FILLED) under the rule's clientOrderId, and the rule
 * must be closed.
 *
 * The child is bundled once (../trading/bundle.ts): a restart costs a Node start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/store/index.js';
import { startSandbox, trackPlacements, type Sandbox } from '../../exchange/harness.js';
import { until } from '../../harness/wait.js';
import { bundle, root, type Runnable } from '../trading/bundle.js';
import { tempDir } from '../trading/support.js';
import {
  exchangeOrders,
  guardedPosition,
  heldOnExchange,
  HELD,
  priceFalls,
  type GuardedPosition,
} from './crash-setup.js';

/** How long the sandbox holds the answer of POST /order in the "after the send" case. */
const HELD_ANSWER_MS = 3000;

let sandbox: Sandbox;
let placements: { pending(): number };
let dir: { dir: string; cleanup: () => void };
let command: Runnable;

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20, rateLimits: false });
  placements = trackPlacements(sandbox.domain);
  dir = tempDir('betdesk-guard-crash-');
  command = await bundle('test/main/guard/crash-worker.ts', 'betdesk-guard-crash-worker');
}, 60_000);

afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
  command.remove();
});

interface Event {
  event: string;
  [field: string]: unknown;
}

interface Child {
  child: ChildProcess;
  /** Resolves with the first event named `name` (rejects if the child exits first). */
  next(name: string): Promise<Event>;
  events: Event[];
  exited: Promise<number | null>;
  stderr(): string;
}

function run(g: GuardedPosition, hang: '' | 'claimed' | 'send'): Child {
  const child = spawn(command.file, command.args, {
    cwd: root,
    env: {
      ...process.env,
      BETDESK_GUARD_URL: g.desk.baseUrl,
      BETDESK_GUARD_KEY: g.desk.apiKey,
      BETDESK_GUARD_SECRET: g.desk.secret,
      BETDESK_GUARD_DB: g.desk.db,
      BETDESK_GUARD_RULE: String(g.ruleId),
      BETDESK_GUARD_HANG: hang,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const events: Event[] = [];
  const waiting: { name: string; resolve: (e: Event) => void }[] = [];
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const e = JSON.parse(line) as Event;
    events.push(e);
    for (const w of waiting.filter((x) => x.name === e.event)) w.resolve(e);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    child,
    events,
    exited,
    stderr: () => err,
    next: (name) => {
      const seen = events.find((e) => e.event === name);
      if (seen) return Promise.resolve(seen);
      return new Promise<Event>((resolve, reject) => {
        waiting.push({ name, resolve });
        void exited.then(() => reject(new Error(`the child exited before "${name}": ${err}`)));
      });
    },
  };
}

async function kill(c: Child): Promise<void> {
  c.child.kill('SIGKILL');
  await c.exited;
}

/** A restarted child finishes the close; returns how the rule ended, as the store has it. */
async function restart(g: GuardedPosition): Promise<{ ended: Event; events: Event[] }> {
  const again = run(g, '');
  const ended = await again.next('ended');
  expect(await again.exited, again.stderr()).toBe(0);
  return { ended, events: again.events };
}

/** ONE close on the exchange, filled, under the rule's clientOrderId; the rule closed. */
async function expectOneClose(g: GuardedPosition): Promise<void> {
  await until('no placement is held inside the exchange', () => placements.pending() === 0);
  const { sells } = await exchangeOrders(sandbox, g);
  const store = openStore(g.desk.db);
  try {
    const rule = store.guards.get(g.ruleId)!;
    expect(rule.state).toBe('closed');
    expect(sells).toHaveLength(1);
    expect(sells[0]).toMatchObject({
      clientOrderId: rule.clientOrderId,
      status: 'FILLED',
      contracts: HELD,
    });
    const log = store.guards.logPage(rule.accountId, { ruleId: g.ruleId, limit: 100 }).rows;
    expect(log.filter((r) => r.event === 'filled')).toHaveLength(1);
    expect(log.filter((r) => r.event === 'failed')).toEqual([]);
  } finally {
    store.close();
  }
  expect(await heldOnExchange(sandbox, g)).toBe(0);
}

describe('a guardian killed while it closes', () => {
  it('closes once when killed after the claim, before the order intent', async () => {
    const g = await guardedPosition(sandbox, path.join(dir.dir, 'claimed.sqlite'));
    await priceFalls(sandbox, g.fixture);
    const first = run(g, 'claimed');
    const placing = await first.next('placing');
    await kill(first);
    const store = openStore(g.desk.db);
    const claimed = store.guards.get(g.ruleId)!;
    store.close();
    // The write-ahead was there before the trading service was asked: firing, with its id.
    expect(claimed.state).toBe('firing');
    expect(claimed.clientOrderId).not.toBeNull();
    expect(placing.clientOrderId).toBe(claimed.clientOrderId);
    expect((await exchangeOrders(sandbox, g)).sells).toEqual([]);

    const { ended, events } = await restart(g);
    expect(ended).toMatchObject({ state: 'closed' });
    expect(events.filter((e) => e.event === 'sending')).toHaveLength(1);
    await expectOneClose(g);
  }, 60_000);

  it('closes once when killed after the order intent, before the send', async () => {
    const g = await guardedPosition(sandbox, path.join(dir.dir, 'intent.sqlite'));
    await priceFalls(sandbox, g.fixture);
    const first = run(g, 'send');
    const sending = await first.next('sending');
    await kill(first);
    const store = openStore(g.desk.db);
    const intent = store.intents.get(String(sending.clientOrderId));
    store.close();
    expect(intent?.state).toBe('pending');
    expect((await exchangeOrders(sandbox, g)).sells).toEqual([]);

    const { ended } = await restart(g);
    expect(ended).toMatchObject({ state: 'closed' });
    await expectOneClose(g);
  }, 60_000);

  it('closes once when killed after the send, before the answer', async () => {
    const g = await guardedPosition(sandbox, path.join(dir.dir, 'sent.sqlite'));
    await priceFalls(sandbox, g.fixture);
    await sandbox.admin('POST', '/faults', {
      route: 'POST /order',
      mode: 'latency',
      ms: HELD_ANSWER_MS,
      count: 1,
    });
    const first = run(g, '');
    await first.next('sending');
    // The exchange has the order and holds its answer: the kill lands after the send.
    await until('the exchange holds the close', () => placements.pending() === 1);
    await kill(first);
    expect(first.events.some((e) => e.event === 'answered')).toBe(false);

    // Restarted while the exchange still holds the first request.
    const { ended } = await restart(g);
    expect(ended).toMatchObject({ state: 'closed' });
    await expectOneClose(g);
  }, 60_000);
});
