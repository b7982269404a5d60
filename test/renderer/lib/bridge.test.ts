import { describe, expect, test } from 'vitest';
import { ErrorCodes } from '../../../src/shared/api/errors.js';
import type { BetdeskBridge } from '../../../src/shared/ipc/bridge.js';
import { BridgeFailure, bridgeOver, messageOf } from '../../../src/renderer/src/lib/bridge.js';

/** A raw bridge (the preload's shape) answering from a table of envelopes. */
function raw(answers: Record<string, unknown>): BetdeskBridge & { listened: string[] } {
  const listened: string[] = [];
  return {
    listened,
    invoke: (channel) => Promise.resolve(answers[channel] as never),
    on: (event) => {
      listened.push(event);
      return () => {};
    },
  };
}

describe('the bridge over an envelope-answering one', () => {
  test('resolves with the value of an ok envelope', async () => {
    const bridge = bridgeOver(
      raw({ 'settings:get': { ok: true, value: { oneClickBetting: true } } }),
    );
    expect(await bridge.invoke('settings:get', {})).toEqual({ oneClickBetting: true });
  });

  test('throws a BridgeFailure that keeps the error’s kind, code and wait', async () => {
    const bridge = bridgeOver(
      raw({
        'order:place': {
          ok: false,
          error: {
            kind: 'rate-limited',
            code: ErrorCodes.TOO_MANY_REQUESTS,
            message: 'The exchange’s order budget is spent for now.',
            retryAfterMs: 1500,
          },
        },
      }),
    );
    const failure = await bridge
      .invoke('order:place', { clientOrderId: 'bd-1', type: 'FOK', rfqId: 'rfq-1' })
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(BridgeFailure);
    expect(failure).toMatchObject({
      name: 'BridgeFailure',
      kind: 'rate-limited',
      code: ErrorCodes.TOO_MANY_REQUESTS,
      retryAfterMs: 1500,
      message: 'The exchange’s order budget is spent for now.',
    });
  });

  test('passes listeners through, and has no connection to report unless told', () => {
    const r = raw({});
    const bridge = bridgeOver(r);
    bridge.on('fixtures:changed', () => {});
    expect(r.listened).toEqual(['fixtures:changed']);
    const changes: boolean[] = [];
    bridge.onConnection((up) => changes.push(up))();
    expect(changes).toEqual([]);
  });
});

describe('messageOf', () => {
  test('says main’s sentence for a bridge failure, and a generic one for anything else', () => {
    expect(messageOf(new BridgeFailure({ kind: 'not-found', message: 'No such order.' }))).toBe(
      'No such order.',
    );
    expect(messageOf(new Error('TypeError: x is undefined'))).toBe(
      'Betdesk could not complete that; please try again.',
    );
  });
});
