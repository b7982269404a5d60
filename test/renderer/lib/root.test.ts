/**
 * The renderer's composition root, wired to an in-memory main through `window.betdesk` (the
 * Electron preload's shape): what each state reads of the others, and what a change of account
 * sets off. A reconnection, which only the browser host's socket has: root-reconnect.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { BetdeskBridge } from '../../../src/shared/ipc/bridge.js';
import type { FixturePage } from '../../../src/shared/ipc/contract.js';
import { BridgeFailure } from '../../../src/renderer/src/lib/bridge.js';
import { connectBridge } from '../../../src/renderer/src/lib/connect.js';
import { createRoot, type Root } from '../../../src/renderer/src/lib/root.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { appInfo, appStatus, fixture, fixtureRef, NOW, position, positionsView } from '../rows.js';

const arsche = fixture();
const livmun = fixture({
  contractId: 'EPL-LIVMUN',
  homeTeam: 'LIV',
  awayTeam: 'MUN',
  homePrice: '0.6100',
  awayPrice: '0.3900',
});
const page: FixturePage = {
  fixtures: [arsche, livmun],
  total: 2,
  limit: 20,
  offset: 0,
  leagues: ['EPL'],
  syncedAt: null,
};
const held = position({
  contractId: 'BUN-FCBBVB',
  outcome: 'FCB',
  fixture: fixtureRef({ league: 'BUN', homeTeam: 'FCB', awayTeam: 'BVB' }),
});

/** The preload's envelope-answering bridge over a FakeBridge the test answers and pushes on. */
function preloadOver(main: FakeBridge): BetdeskBridge {
  return {
    async invoke(channel, input) {
      try {
        return { ok: true, value: await main.invoke(channel, input) };
      } catch (err) {
        if (!(err instanceof BridgeFailure)) throw err;
        return { ok: false, error: { kind: err.kind, message: err.message } };
      }
    },
    on: (event, listener) => main.on(event, listener),
  };
}

let main: FakeBridge;
let desk: Root;
let stop: () => void;

beforeEach(async () => {
  main = new FakeBridge();
  main.answer('app:info', appInfo());
  main.answer('status:get', appStatus());
  main.answer('fixtures:list', page);
  main.answer('positions:list', positionsView([held]));
  vi.stubGlobal('window', { betdesk: preloadOver(main) });
  desk = createRoot(connectBridge());
  stop = desk.start();
  await settle();
});

afterEach(() => {
  stop();
  vi.unstubAllGlobals();
});

describe('the desk’s wiring', () => {
  test('starts every subscription and reads what the first screen needs', () => {
    const asked = new Set(main.calls.map((c) => c.channel));
    for (const channel of ['app:info', 'fixtures:list', 'positions:list', 'settings:get']) {
      expect(asked).toContain(channel);
    }
    for (const event of ['orders:changed', 'positions:changed', 'fixtures:changed', 'app:show']) {
      expect(main.listening(event as never)).toBeGreaterThan(0);
    }
  });

  test('the slip knows what the markets and positions know', () => {
    const { slip } = desk;
    slip.select(arsche, 'ARS');
    expect(slip.refusal).toBeNull();
    main.emit('positions:changed', {
      accountId: null,
      at: NOW,
      view: positionsView([held, position({ outcome: 'CHE' })]),
    });
    expect(slip.refusal?.message).toMatch(/^You hold CHE on ARS v CHE/);
  });

  test('the practice panel offers the selected position first, then the others, the slip’s pick and the markets', () => {
    const { practice, selectPosition, slip } = desk;
    slip.select(livmun, 'MUN');
    expect(practice.fixtures.map((f) => f.contractId)).toEqual([
      'BUN-FCBBVB',
      'EPL-LIVMUN',
      'EPL-ARSCHE',
    ]);
    expect(practice.fixtures[1]).toMatchObject({ outcome: 'MUN' });
    selectPosition(held);
    expect(practice.contractId).toBe('BUN-FCBBVB');
    expect(practice.held).toEqual(held);
    // The slip's fixture comes with the slip's outcome, and its index price from the markets.
    practice.contractId = 'EPL-LIVMUN';
    expect(practice.outcome).toBe('MUN');
    expect(practice.indexNow).toBe('0.3900');
  });

  test('another account clears the slip and reads its own positions', async () => {
    const { slip } = desk;
    slip.select(arsche, 'ARS');
    const reads = main.inputs('positions:list').length;
    main.emit('app:changed', appInfo({ mode: 'live', activeAccountId: 'acc-1' }));
    await settle();
    expect(slip.selection).toBeNull();
    expect(main.inputs('positions:list').length).toBe(reads + 1);
  });

  test('a clicked notification shows the position on the positions screen', () => {
    const { nav, positions, showPosition } = desk;
    showPosition('BUN-FCBBVB', 'FCB');
    expect(nav.screen).toBe('positions');
    expect(positions.selected).toBe('BUN-FCBBVB|FCB');
  });
});
