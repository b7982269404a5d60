import type { DateRangeState } from '../../../src/renderer/src/lib/state/date-range.svelte.js';
import { settle } from '../fake-bridge.js';

/** Custom dates that end before they start (10 March to 1 March 2026): not a range. */
export async function chooseBackwardsRange(range: DateRangeState): Promise<void> {
  range.preset = 'custom';
  range.from = '2026-03-10';
  range.to = '2026-03-01';
  await settle();
}
