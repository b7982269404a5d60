/**
 * The child process of the guardian crash test: it opens the guard desk on the store, starts
 * the sync engine and the guardian (which resumes a close claimed before a restart), and says
 * what happens on standard output, one JSON line per event, until the rule it watches has
 * ended; then it stops cleanly and exits.
 *
 * BETDESK_GUARD_HANG, the test-only hook, makes the child stop where its parent kills it:
 * - `claimed`: the guardian asked the trading service to place its close (the rule is claimed
 *   in the store, no order intent yet): the child never goes on.
 * - `send`: the order intent is committed and POST /order is about to go out: the child never
 *   sends it.
 * Without it the child runs through. Events: started, placing, sending, answered, ended.
 *
 * Environment: BETDESK_GUARD_URL, BETDESK_GUARD_KEY, BETDESK_GUARD_SECRET, BETDESK_GUARD_DB,
 * BETDESK_GUARD_RULE (the rule's id), BETDESK_GUARD_HANG (optional).
 */
import { openGuardDesk } from './crash-desk.js';

function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
}

function say(event: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

const hang = process.env.BETDESK_GUARD_HANG ?? '';
const forever = (): Promise<never> => new Promise<never>(() => {});
const ruleId = Number(env('BETDESK_GUARD_RULE'));

const desk = openGuardDesk({
  baseUrl: env('BETDESK_GUARD_URL'),
  apiKey: env('BETDESK_GUARD_KEY'),
  secret: env('BETDESK_GUARD_SECRET'),
  db: env('BETDESK_GUARD_DB'),
  wrapTrading: (trading) => ({
    placeOrder: async (params) => {
      say({ event: 'placing', clientOrderId: params.clientOrderId ?? null });
      if (hang === 'claimed') return forever();
      return trading.placeOrder(params);
    },
    waitForFinal: (...args) => trading.waitForFinal(...args),
  }),
});

// Between the committed intent and the request: the client's send is the last step.
const send = desk.client.placeOrder.bind(desk.client);
desk.client.placeOrder = async (req, o) => {
  say({ event: 'sending', clientOrderId: req.clientOrderId ?? null });
  if (hang === 'send') return forever();
  const placed = await send(req, o);
  say({ event: 'answered', clientOrderId: req.clientOrderId ?? null });
  return placed;
};

desk.engine.start();
desk.guardian.start();
say({ event: 'started', rule: desk.store.guards.get(ruleId)?.state ?? null });

const LIVE = new Set(['armed', 'firing']);
for (;;) {
  const rule = desk.store.guards.get(ruleId);
  if (rule && !LIVE.has(rule.state)) {
    await desk.guardian.idle();
    say({ event: 'ended', state: rule.state, reason: rule.reason });
    break;
  }
  await new Promise((r) => setTimeout(r, 20));
}
await desk.close();
