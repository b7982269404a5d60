/**
 * A position's Guard dialog: arming sends the rules as typed (kind, figure, share, fresh checks),
 * Change sends the new rule with the one it replaces, Disarm names the rule; a figure that is
 * not a rule is refused in words before anything is sent; a read-only key cannot arm.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import GuardDialog from '../../../../src/renderer/src/components/guards/GuardDialog.svelte';
import type { Root } from '../../../../src/renderer/src/lib/root.js';
import type { GuardSpec, GuardsView } from '../../../../src/shared/ipc/contract.js';
import { axeProblems } from '../../axe.js';
import { FakeBridge, settle } from '../../fake-bridge.js';
import { guardRule, guardSpec, guardsView } from '../../guard-rows.js';
import { mountWith, testRoot } from '../../mount.js';
import { NOW, position, positionsView } from '../../rows.js';

let bridge: FakeBridge;
let root: Root;
let remove: () => void;
let stop: () => void;
const onClose = vi.fn();

const target = { contractId: 'EPL-ARSCHE', outcome: 'ARS', name: 'ARS v CHE' };

async function open(
  view: GuardsView,
  prefill: GuardSpec[] = [],
  on: typeof target & { boosted?: boolean } = target,
): Promise<void> {
  bridge.answer('guards:list', view);
  stop = root.guards.start();
  await settle();
  remove = mountWith(GuardDialog, root, { target: on, prefill, onClose });
}

beforeEach(() => {
  bridge = new FakeBridge();
  bridge.answer('guards:settings', {
    limits: { closes: 10, contracts: null, stake: null },
    defaults: [],
  });
  bridge.answer('guards:arm', () => guardsView());
  bridge.answer('guards:disarm', () => guardsView());
  root = testRoot(bridge);
  onClose.mockReset();
});

afterEach(() => {
  remove();
  stop();
});

const dialog = () => page.getByRole('dialog', { name: 'Guardians · ARS · ARS v CHE' });

test('arming sends each rule as typed, then closes the dialog', async () => {
  await open(guardsView());
  await expect.element(dialog()).toBeVisible();
  await expect.element(dialog().getByText(/None armed/)).toBeVisible();
  // Rule 1: a knockout guard at 4 %, closing half, on two fresh checks.
  const first = dialog().getByRole('group', { name: 'Rule 1' });
  await userEvent.fill(
    first.getByRole('textbox', { name: 'Close within (% of the knockout)' }),
    '4',
  );
  await userEvent.fill(first.getByRole('textbox', { name: 'Share to close (%)' }), '50');
  await userEvent.fill(first.getByRole('textbox', { name: 'Fresh checks (K)' }), '2');
  // Rule 2: a stop at a closing price.
  await userEvent.click(dialog().getByRole('button', { name: 'Add another rule' }));
  const second = dialog().getByRole('group', { name: 'Rule 2' });
  await userEvent.selectOptions(second.getByRole('combobox', { name: 'Rule' }), 'stop_loss');
  await userEvent.selectOptions(second.getByRole('combobox', { name: 'Measured by' }), 'price');
  await userEvent.fill(second.getByRole('textbox', { name: 'Close at closing price' }), '0.4200');
  await userEvent.click(dialog().getByRole('button', { name: 'Arm 2 rules' }));

  await expect.poll(() => bridge.inputs('guards:arm')).toHaveLength(1);
  expect(bridge.inputs('guards:arm')[0]).toEqual({
    contractId: 'EPL-ARSCHE',
    outcome: 'ARS',
    rules: [
      { kind: 'knockout', percent: '4', sharePercent: 50, confirmations: 2 },
      { kind: 'stop_loss', price: '0.4200', sharePercent: 100, confirmations: 1 },
    ],
  });
  await expect.poll(() => onClose.mock.calls.length).toBe(1);
});

test('a position without a boost starts from a stop loss and offers no knockout guard', async () => {
  await open(guardsView(), [], { ...target, boosted: false });
  const first = dialog().getByRole('group', { name: 'Rule 1' });
  const kind = first.getByRole('combobox', { name: 'Rule' });
  await expect.element(kind).toHaveValue('stop_loss');
  const options = [...(kind.element() as HTMLSelectElement).options].map((o) => o.value);
  expect(options).not.toContain('knockout');
  expect(options).toContain('trailing_stop');
});

test('a figure that is not a rule is refused in words, and nothing is sent', async () => {
  await open(guardsView());
  const first = dialog().getByRole('group', { name: 'Rule 1' });
  await userEvent.fill(
    first.getByRole('textbox', { name: 'Close within (% of the knockout)' }),
    '150',
  );
  await userEvent.click(dialog().getByRole('button', { name: 'Arm rule' }));
  await expect
    .element(
      first.getByText(
        'A knockout guard’s % is above 0 and below 100, with up to two places, like 5.',
      ),
    )
    .toBeVisible();
  expect(bridge.inputs('guards:arm')).toEqual([]);
  expect(onClose).not.toHaveBeenCalled();
});

test('Change loads the rule and sends its replacement with the id it replaces', async () => {
  await open(
    guardsView([guardRule({ id: 7, spec: guardSpec({ kind: 'stop_loss', percent: '20' }) })]),
  );
  await expect.element(dialog().getByText('Stop −20 % · 3.2 % away')).toBeVisible();
  await userEvent.click(dialog().getByRole('button', { name: 'Change Stop −20 %' }));
  await expect.element(dialog().getByRole('heading', { name: 'Change Stop −20 %' })).toBeVisible();
  await userEvent.fill(dialog().getByRole('textbox', { name: 'Close at a loss of (%)' }), '15');
  await userEvent.click(dialog().getByRole('button', { name: 'Change rule' }));
  await expect.poll(() => bridge.inputs('guards:arm')).toHaveLength(1);
  expect(bridge.inputs('guards:arm')[0]).toEqual({
    contractId: 'EPL-ARSCHE',
    outcome: 'ARS',
    rules: [{ kind: 'stop_loss', percent: '15', sharePercent: 100, confirmations: 1 }],
    replaces: 7,
  });
});

test('Disarm names the one rule; Disarm all names the position', async () => {
  await open(
    guardsView([
      guardRule({ id: 3 }),
      guardRule({ id: 4, spec: guardSpec({ kind: 'trailing_stop', percent: '10' }) }),
    ]),
  );
  await userEvent.click(dialog().getByRole('button', { name: 'Disarm Trail 10 %' }));
  await expect.poll(() => bridge.inputs('guards:disarm')).toEqual([{ ruleId: 4 }]);
});

test('Disarm all on this position disarms by contract and outcome', async () => {
  await open(
    guardsView([
      guardRule({ id: 3 }),
      guardRule({ id: 4, spec: guardSpec({ kind: 'trailing_stop', percent: '10' }) }),
    ]),
  );
  await userEvent.click(dialog().getByRole('button', { name: 'Disarm all on this position' }));
  await expect
    .poll(() => bridge.inputs('guards:disarm'))
    .toEqual([{ contractId: 'EPL-ARSCHE', outcome: 'ARS' }]);
});

test('a read-only key cannot arm, and the dialog says why', async () => {
  await open(guardsView([], { readOnly: true }));
  await expect.element(dialog().getByText(/may only read/)).toBeVisible();
  await expect.element(dialog().getByRole('button', { name: 'Arm rule' })).toBeDisabled();
});

test('main’s refusal is shown in its words and the dialog stays open', async () => {
  bridge.fail('guards:arm', { kind: 'invalid-input', message: 'No position on ARS to guard.' });
  await open(guardsView());
  await userEvent.click(dialog().getByRole('button', { name: 'Arm rule' }));
  await expect
    .element(dialog().getByRole('alert'))
    .toHaveTextContent('No position on ARS to guard.');
  expect(onClose).not.toHaveBeenCalled();
});

test('a rule that would fire at once is said before Arm, and only then armed with fireNow', async () => {
  bridge.answer('guards:check', (input) => ({
    rules: input.rules.map((r) =>
      r.percent === '99.99'
        ? {
            firesNow: true,
            distance: 'knockout 36.83 % away, within 99.99 %',
            contracts: 10,
            observedAt: 1,
          }
        : {
            firesNow: false,
            distance: 'knockout 36.83 % away, fires at 5 %',
            contracts: null,
            observedAt: 1,
          },
    ),
    problem: null,
  }));
  await open(guardsView());
  const field = dialog().getByRole('textbox', { name: 'Close within (% of the knockout)' });
  await userEvent.fill(field, '99.99');
  await expect
    .element(dialog().getByText(/^Rule 1 would fire at once on the figures now/))
    .toHaveTextContent(
      'Rule 1 would fire at once on the figures now (knockout 36.83 % away, within 99.99 %): armed, it sells 10 contracts at the market at the next fresh price read.',
    );
  await expect(axeProblems()).resolves.toEqual([]);
  await userEvent.click(dialog().getByRole('button', { name: 'Arm and close now' }));
  await expect.poll(() => bridge.inputs('guards:arm')).toHaveLength(1);
  expect(bridge.inputs('guards:arm')[0]).toMatchObject({ fireNow: true });

  // Back to a figure that does not hold: no warning, and armed without fireNow.
  await userEvent.fill(field, '5');
  await expect.element(dialog().getByRole('button', { name: 'Arm rule' })).toBeVisible();
  await expect.element(dialog().getByText(/would fire at once/)).not.toBeInTheDocument();
  await userEvent.click(dialog().getByRole('button', { name: 'Arm rule' }));
  await expect.poll(() => bridge.inputs('guards:arm')).toHaveLength(2);
  expect(bridge.inputs('guards:arm')[1]).not.toHaveProperty('fireNow');
});

test('what main would refuse (a time exit too late) is said before Arm', async () => {
  bridge.answer('guards:check', (input) => ({
    rules: input.rules.map(() => ({
      firesNow: false,
      distance: null,
      contracts: null,
      observedAt: null,
    })),
    problem:
      'ARS v CHE kicks off in 10 min, sooner than this time exit’s 30 min: it would close at once. Choose fewer minutes, or close it yourself.',
  }));
  await open(guardsView());
  await userEvent.selectOptions(dialog().getByRole('combobox', { name: 'Rule' }), 'time_exit');
  await userEvent.fill(dialog().getByRole('textbox', { name: 'Minutes before kick-off' }), '30');
  await expect.element(dialog().getByText(/sooner than this time exit’s 30 min/)).toBeVisible();
  await expect(axeProblems()).resolves.toEqual([]);
});

test('once its position is gone, the dialog says so and offers no rule to arm (issue 27 item 13)', async () => {
  bridge.answer(
    'positions:list',
    positionsView([position({ contractId: 'EPL-ARSCHE', outcome: 'ARS', contracts: 10 })]),
  );
  const stopPositions = root.positions.start();
  await settle();
  await open(guardsView());
  await expect.element(dialog().getByRole('heading', { name: 'Arm new rules' })).toBeVisible();
  bridge.emit('positions:changed', { accountId: null, at: NOW + 1, view: positionsView([]) });
  await expect
    .element(dialog().getByText('This position is closed: nothing is left to guard'))
    .toBeVisible();
  await expect
    .element(dialog().getByRole('heading', { name: 'Arm new rules' }))
    .not.toBeInTheDocument();
  await expect.element(dialog().getByRole('button', { name: 'Arm rule' })).not.toBeInTheDocument();
  expect(await axeProblems()).toEqual([]);
  stopPositions();
});

test('a knockout guard says its share is of the boosted contracts, and when it ends (issue 27 item 3)', async () => {
  await open(guardsView());
  const rule = dialog().getByRole('group', { name: 'Rule 1' });
  await expect
    .element(rule.getByText(/^Its share is of the boosted contracts, the ones a knockout takes\./))
    .toBeVisible();
  await userEvent.selectOptions(rule.getByRole('combobox', { name: 'Rule' }), 'stop_loss');
  await expect.element(rule.getByText(/^Its share is of the boosted/)).not.toBeInTheDocument();
});
