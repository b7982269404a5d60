/**
 * Mounts one component as the app would, with a root built over an in-memory bridge instead of
 * main (component tests run in Chromium: vitest.config.ts, project "components").
 */
import { flushSync, mount, unmount, type Component } from 'svelte';
import { createRoot, rootContext, type Root } from '../../src/renderer/src/lib/root.js';
import type { FakeBridge } from './fake-bridge.js';

/** A root over `bridge` that copies, downloads and notifies nothing. */
export function testRoot(bridge: FakeBridge): Root {
  return createRoot(bridge, {
    copy: () => Promise.resolve(true),
    download: () => {},
    notifications: {
      permission: () => 'unsupported',
      request: () => Promise.resolve('unsupported'),
      show: () => {},
    },
  });
}

/** Mounts `component` in the page with `root` in its context; returns the function that removes it. */
export function mountWith<P extends Record<string, unknown>>(
  component: Component<P>,
  root: Root,
  props: P = {} as P,
): () => void {
  const target = document.body.appendChild(document.createElement('main'));
  const mounted = mount(component, { target, props, context: rootContext(root) });
  flushSync();
  return () => {
    void unmount(mounted);
    target.remove();
  };
}
