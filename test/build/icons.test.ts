/**
 * `npm run icons` (build/icons.mjs): every icon from build/icon.svg, run into a temp dir. The
 * sizes and containers are what electron-builder, the tray and the browser host expect, and the
 * committed icons are exactly what the script makes today.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../harness/processes.js';
import { tempDir } from '../harness/temp.js';

const run = promisify(execFile);
const out = tempDir('betdesk-icons-test-');
const again = tempDir('betdesk-icons-test-');

/** Every file under `dir`, by its path relative to `dir`. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

const made = (path: string): Buffer => readFileSync(join(out.dir, path));

/** The image sizes listed in an .ico file's directory (a width byte of 0 means 256). */
function icoSizes(ico: Buffer): number[] {
  expect(ico.readUInt16LE(0)).toBe(0); // reserved
  expect(ico.readUInt16LE(2)).toBe(1); // 1 = icon
  const count = ico.readUInt16LE(4);
  return Array.from({ length: count }, (_, i) => {
    const entry = 6 + 16 * i;
    const [width, height] = [ico.readUInt8(entry) || 256, ico.readUInt8(entry + 1) || 256];
    expect(height).toBe(width);
    const [size, offset] = [ico.readUInt32LE(entry + 8), ico.readUInt32LE(entry + 12)];
    expect(offset + size).toBeLessThanOrEqual(ico.length);
    return width;
  });
}

/** The element types of an .icns file, after checking its magic and lengths. */
function icnsTypes(icns: Buffer): string[] {
  expect(icns.toString('ascii', 0, 4)).toBe('icns');
  expect(icns.readUInt32BE(4)).toBe(icns.length);
  const types: string[] = [];
  for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) {
    types.push(icns.toString('ascii', at, at + 4));
    expect(icns.readUInt32BE(at + 4)).toBeGreaterThan(8);
  }
  return types;
}

/** The mean red-minus-blue of the top-right quarter: high where the warning badge is. */
async function topRightRedness(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  let sum = 0;
  let n = 0;
  for (let y = 0; y < info.height / 2; y++) {
    for (let x = info.width / 2; x < info.width; x++) {
      const i = (y * info.width + x) * info.channels;
      sum += (data[i] ?? 0) - (data[i + 2] ?? 0);
      n++;
    }
  }
  return sum / n;
}

beforeAll(async () => {
  await run(process.execPath, ['build/icons.mjs', '--out', out.dir], { cwd: root });
});
afterAll(() => {
  out.cleanup();
  again.cleanup();
});

describe('the icon script', () => {
  it("writes electron-builder's Linux icon set, each PNG the size its name says", async () => {
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) {
      const meta = await sharp(made(`build/icons/${size}x${size}.png`)).metadata();
      expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual([
        'png',
        size,
        size,
        true,
      ]);
    }
  });

  it.each([
    ['build/icon.png', 1024],
    ['resources/icon.png', 512],
    ['resources/tray/tray.png', 32],
    ['resources/tray/tray@2x.png', 64],
    ['resources/tray/tray-warning.png', 32],
    ['resources/tray/tray-warning@2x.png', 64],
    ['src/renderer/public/favicon.png', 64],
  ])('writes %s at %i px', async (path, size) => {
    const meta = await sharp(made(path)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', size, size]);
  });

  it('packs 16 to 256 px into the Windows .ico, and 16, 32 and 48 px into the favicon', () => {
    expect(icoSizes(made('build/icon.ico'))).toEqual([16, 24, 32, 48, 64, 128, 256]);
    expect(icoSizes(made('src/renderer/public/favicon.ico'))).toEqual([16, 32, 48]);
  });

  it('packs every macOS size from 16 to 1024 px into the .icns', () => {
    expect(icnsTypes(made('build/icon.icns')).sort()).toEqual(
      [
        'ic07',
        'ic08',
        'ic09',
        'ic10',
        'ic11',
        'ic12',
        'ic13',
        'ic14',
        'il32',
        'is32',
        'l8mk',
        's8mk',
      ].sort(),
    );
  });

  it('marks the warning tray icon with a red badge in its top-right corner', async () => {
    for (const [normal, warning] of [
      ['resources/tray/tray.png', 'resources/tray/tray-warning.png'],
      ['resources/tray/tray@2x.png', 'resources/tray/tray-warning@2x.png'],
    ] as const) {
      expect(made(warning).equals(made(normal))).toBe(false);
      expect(await topRightRedness(made(warning))).toBeGreaterThan(
        (await topRightRedness(made(normal))) + 40,
      );
    }
  });

  it('makes the same bytes from the same source', async () => {
    await run(process.execPath, ['build/icons.mjs', '--out', again.dir], { cwd: root });
    expect(files(again.dir)).toEqual(files(out.dir));
    for (const path of files(out.dir)) {
      expect(readFileSync(join(again.dir, path)).equals(made(path)), path).toBe(true);
    }
  });

  it('matches the committed icons byte for byte (run `npm run icons` after changing the SVG)', () => {
    expect(files(out.dir)).toHaveLength(19);
    for (const path of files(out.dir)) {
      expect(readFileSync(join(root, path)).equals(made(path)), path).toBe(true);
    }
  });

  it("is the browser host's favicon", () => {
    const html = readFileSync(join(root, 'src/renderer/index.html'), 'utf8');
    expect(html).toContain('<link rel="icon" href="./favicon.png" />');
  });
});
