/**
 * The slip's view of the app, as reactive state the test sets: the slip derives what it shows,
 * so what it reads of the app must be reactive, as the app's own state classes are.
 */
import type { FixtureRef, PositionRow } from '../../../src/shared/ipc/contract.js';
import type { SlipContext } from '../../../src/renderer/src/lib/state/slip.svelte.js';

export class TestSlipContext implements SlipContext {
  canTrade = $state(true);
  online = $state(true);
  connected = $state(true);
  oneClick = $state(true);
  positions = $state.raw<PositionRow[]>([]);
  fixture = $state.raw<(contractId: string) => FixtureRef | null>(() => null);

  constructor(over: Partial<Omit<TestSlipContext, 'fixture'>> = {}) {
    Object.assign(this, over);
  }
}
