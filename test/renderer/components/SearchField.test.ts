/** A screen's search box takes the focus when the `/` shortcut asks for its screen, and only then. */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import { flushSync } from 'svelte';
import SearchField from '../../../src/renderer/src/components/SearchField.svelte';
import type { Root } from '../../../src/renderer/src/lib/root.js';
import { FakeBridge } from '../fake-bridge.js';
import { mountWith, testRoot } from '../mount.js';

let root: Root;
let remove: () => void;

beforeEach(() => {
  root = testRoot(new FakeBridge());
  remove = mountWith(SearchField, root, {
    label: 'Search teams',
    placeholder: 'e.g. ARS',
    value: '',
    screen: 'markets',
  });
});

afterEach(() => remove());

test('the shortcut on the markets screen focuses its box, and the request is done', async () => {
  const box = page.getByRole('searchbox', { name: 'Search teams' });
  await expect.element(box).not.toHaveFocus();
  root.nav.requestSearch();
  flushSync();
  await expect.element(box).toHaveFocus();
  expect(root.nav.searchFor).toBeNull();
});

test('a request for another screen leaves the box alone', async () => {
  root.nav.screen = 'positions';
  root.nav.requestSearch();
  flushSync();
  await expect.element(page.getByRole('searchbox', { name: 'Search teams' })).not.toHaveFocus();
  expect(root.nav.searchFor).toBe('positions');
});
