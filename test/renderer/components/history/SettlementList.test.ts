/**
 * History's grid over a long list, in Chromium: it renders only the rows in view (and a few
 * around), in a bounded number of DOM rows that a scroll reuses rather than makes, so a long
 * scroll leaves nothing behind for the renderer's garbage collector; a row waiting for its page
 * keeps its cells and says "Loading…" until the page lands.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import HistoryScreen from '../../../../src/renderer/src/screens/HistoryScreen.svelte';
import type { Root } from '../../../../src/renderer/src/lib/root.js';
import type { HistoryQuery } from '../../../../src/shared/ipc/contract.js';
import { deferred, FakeBridge, settle, type Deferred } from '../../fake-bridge.js';
import { mountWith, testRoot } from '../../mount.js';
import { historySummary, NOW, settlementStore } from '../../rows.js';

const TOTAL = 100_000;
/** Rows from this offset on wait for `gate`: far rows the test sees arrive. */
const FAR = 50_000;

let bridge: FakeBridge;
let root: Root;
let gate: Deferred<void>;
let stops: (() => void)[];
let remove: () => void;

beforeEach(async () => {
  await page.viewport(1400, 900);
  bridge = new FakeBridge();
  gate = deferred<void>();
  const store = settlementStore(TOTAL);
  bridge.answer('history:list', async (q: HistoryQuery) => {
    if (q.offset >= FAR) await gate.promise;
    return store(q);
  });
  bridge.answer('history:summary', historySummary());
  bridge.answer('history:choices', {
    leagues: [],
    teams: [],
    fixtures: [],
    first: NOW,
    last: NOW,
  });
  bridge.answer('history:status', { progress: null });
  root = testRoot(bridge);
  stops = [root.history.start(), root.nav.start()];
  await settle();
  remove = mountWith(HistoryScreen, root);
});

afterEach(() => {
  gate.resolve();
  remove();
  for (const stop of stops) stop();
});

const grid = () => page.getByRole('grid', { name: 'Settlements' });
const scroller = () => grid().element() as HTMLElement;
/** The DOM rows of the list (not the header), in document order. */
const domRows = () => [...scroller().querySelectorAll<HTMLElement>('.sizer > [role="row"]')];
const rowIndices = () => domRows().map((r) => Number(r.getAttribute('aria-rowindex')) - 2);
/** The DOM row of list index `i` (aria-rowindex counts the header as 1), or null. */
const rowOf = (i: number) => scroller().querySelector<HTMLElement>(`[aria-rowindex="${i + 2}"]`);
/** The cells of list index `i`'s row: its text once its page has landed, else "Loading…". */
const cellsOf = (i: number) => [...(rowOf(i)?.querySelectorAll('[role="gridcell"]') ?? [])];
const shows = (i: number) => rowOf(i)?.querySelector('time') != null;

async function scrollTo(px: number): Promise<void> {
  scroller().scrollTop = px;
  scroller().dispatchEvent(new Event('scroll'));
  await settle();
}

test('the rows in view, in order, in a number of DOM rows that does not grow with the list', async () => {
  await expect.poll(() => shows(0)).toBe(true);
  const indices = rowIndices();
  expect(indices[0]).toBe(0);
  expect(indices).toEqual(indices.map((_, k) => k));
  // What fits under the header, one row cut off at each edge, and five rows either side.
  const view = scroller().clientHeight;
  expect(indices.length).toBe(Math.ceil((view - 26) / 24) + 1 + 2 * 5);
  expect(scroller().scrollHeight).toBeGreaterThanOrEqual(TOTAL * 24);
});

test('a scroll reuses the DOM rows that left the view for those that came: none is made', async () => {
  await expect.poll(() => shows(0)).toBe(true);
  const made = new Set(domRows());

  // Thirty rows down, then three up (a wheel's pace).
  await scrollTo(7 * 24);
  await expect.poll(() => shows(7 + 20)).toBe(true);
  await scrollTo(4 * 24);
  await expect.poll(() => rowOf(2)).not.toBeNull();
  expect(rowIndices()[0]).toBe(0);
  console.log(
    'DEBUG2',
    made.size,
    JSON.stringify(rowIndices()),
    domRows()
      .map((r) => made.has(r))
      .join(),
  );
  for (const r of domRows()) expect(made.has(r)).toBe(true);

  // A dragged scrollbar: far rows, all of them new to the list; their page is on its way.
  const far = FAR + 1_000;
  await scrollTo(far * 24);
  await expect.poll(() => rowOf(far)).not.toBeNull();
  const waiting = domRows();
  for (const r of waiting) expect(made.has(r)).toBe(true);
  expect(cellsOf(far)).toHaveLength(10);
  expect(cellsOf(far)[0]?.textContent).toBe('Loading…');

  // The page lands: the same DOM rows show it.
  gate.resolve();
  await expect.poll(() => shows(far)).toBe(true);
  expect(cellsOf(far)[3]?.textContent).toBe('ARS');
  expect(domRows()).toEqual(waiting);
  const indices = rowIndices();
  expect(indices).toEqual(indices.map((_, k) => indices[0]! + k));
});
