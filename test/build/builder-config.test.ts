/**
 * The packaging configuration (electron-builder.config.mjs) checked the way electron-builder
 * checks it, against the JSON schema it ships, so a misspelt or mistyped option fails here even
 * though no package can be built on this machine; then the rules Betdesk's packages keep.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Ajv from 'ajv';
import type { Configuration } from 'electron-builder';
import { minimatch } from 'minimatch';
import { beforeAll, describe, expect, it } from 'vitest';
import { root } from '../harness/processes.js';

let config: Configuration;
let validate: (data: unknown) => boolean;
let errors: () => string;

beforeAll(async () => {
  const url = pathToFileURL(join(root, 'electron-builder.config.mjs')).href;
  config = ((await import(url)) as { default: Configuration }).default;
  const schemaFile = join(root, 'node_modules', 'app-builder-lib', 'scheme.json');
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as object;
  // As electron-builder compiles it (strict off: the schema has its own `typeof` keyword), but
  // without its type coercion, so "true" for a boolean fails too.
  const ajv = new Ajv({ allErrors: true, strict: false });
  const compiled = ajv.compile(schema);
  validate = (data) => compiled(data);
  errors = () => ajv.errorsText(compiled.errors);
});

/** A copy of the configuration with one change, for the schema to refuse. */
function mutated(change: (c: Record<string, unknown>) => void): unknown {
  const copy = structuredClone(config) as Record<string, unknown>;
  change(copy);
  return copy;
}

/** Whether electron-builder's `files` patterns put a project file into the app. */
function packed(file: string): boolean {
  const patterns = [config.files ?? []].flat().filter((p) => typeof p === 'string');
  let included = false;
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) {
      if (minimatch(file, pattern.slice(1), { dot: true })) included = false;
    } else if (minimatch(file, pattern, { dot: true })) {
      included = true;
    }
  }
  return included;
}

describe('the electron-builder configuration', () => {
  it("is valid under electron-builder's own schema", () => {
    expect(validate(config), errors()).toBe(true);
  });

  it.each([
    ['a misspelt top-level option', (c: Record<string, unknown>) => (c.asarUnpak = c.asarUnpack)],
    ['a wrong type', (c: Record<string, unknown>) => (c.asar = 'yes')],
    ['a boolean written as a string', (c: Record<string, unknown>) => (c.npmRebuild = 'true')],
    [
      'a misspelt fuse',
      (c: Record<string, unknown>) =>
        (c.electronFuses = { ...config.electronFuses, runAsnode: false }),
    ],
    ['a misspelt NSIS option', (c: Record<string, unknown>) => (c.nsis = { oneClik: false })],
    [
      'an unknown target arch',
      (c: Record<string, unknown>) => (c.mac = { target: [{ target: 'dmg', arch: ['m1'] }] }),
    ],
  ])('fails validation with %s', (_name, change) => {
    expect(validate(mutated(change))).toBe(false);
  });

  it('names the app, its publisher and its copyright, and opens no file types', () => {
    expect(config.appId).toBe('app.betdesk.desktop');
    expect(config.productName).toBe('Betdesk');
    expect(config.copyright).toMatch(/Betdesk/);
    expect(config.extraMetadata).toMatchObject({ author: { name: 'Betdesk' } });
    expect(config.fileAssociations ?? []).toEqual([]);
    expect(config.protocols).toBeUndefined();
  });

  it('sets the Electron fuses that close the ways around the packaged app', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      loadBrowserProcessSpecificV8Snapshot: false,
    });
  });

  it('packs the app into an asar, with the native modules unpacked and rebuilt for Electron', () => {
    expect(config.asar).toBe(true);
    expect(config.npmRebuild).toBe(true);
    const unpack = [config.asarUnpack ?? []].flat();
    const unpacked = (file: string) => unpack.some((p) => minimatch(file, p, { dot: true }));
    expect(unpacked('node_modules/better-sqlite3/build/Release/better_sqlite3.node')).toBe(true);
    expect(unpacked('node_modules/keytar/build/Release/keytar.node')).toBe(true);
    expect(unpacked('node_modules/fastify/lib/server.js')).toBe(false);
    expect(unpacked('out/main/index.js')).toBe(false);
  });

  it('packs the built app, its icons and package.json, and no sources, tests or build scripts', () => {
    for (const file of [
      'out/main/index.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'out/renderer/favicon.png',
      'resources/icon.png',
      'resources/tray/tray-warning@2x.png',
      'package.json',
    ]) {
      expect(packed(file), file).toBe(true);
    }
    for (const file of [
      'src/main/shell/index.ts',
      'test/build/builder-config.test.ts',
      'bench/core.ts',
      'docs/api.md',
      'build/icons.mjs',
      'build/dist.mjs',
      'build/electron-native/better_sqlite3.node',
      'electron-builder.config.mjs',
      'README.md',
      'out/main/index.js.map',
    ]) {
      expect(packed(file), file).toBe(false);
    }
  });

  it('builds an AppImage and a deb for Linux, in Finance, depending on libsecret', () => {
    expect(config.linux?.target).toEqual([
      { target: 'AppImage', arch: ['x64'] },
      { target: 'deb', arch: ['x64'] },
    ]);
    expect(config.linux?.category).toBe('Finance');
    expect(config.linux?.maintainer).toMatch(/^.+ <.+@.+>$/);
    expect(config.deb?.depends).toContain('libsecret-1-0');
  });

  it('builds a dmg for Intel and Apple silicon Macs, with the hardened runtime', () => {
    expect(config.mac?.target).toEqual([{ target: 'dmg', arch: ['x64', 'arm64'] }]);
    expect(config.mac?.category).toBe('public.app-category.finance');
    expect(config.mac?.hardenedRuntime).toBe(true);
  });

  it('builds an assisted, per-user NSIS installer for 64-bit Windows', () => {
    expect(config.win?.target).toEqual([{ target: 'nsis', arch: ['x64'] }]);
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false });
  });

  it('reads its resources from build/ and writes the packages to dist/', () => {
    expect(config.directories).toEqual({ buildResources: 'build', output: 'dist' });
    const icons = [config.linux?.icon, config.mac?.icon, config.win?.icon];
    for (const icon of icons) expect(existsSync(join(root, String(icon))), String(icon)).toBe(true);
  });
});
