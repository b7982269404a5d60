import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { iconFiles, UNREAD_DOT_DATA_URL } from '../../../src/main/shell/icon.js';

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

interface Image {
  width: number;
  height: number;
  /** RGBA, row by row. */
  pixels: Buffer;
}

/** Decodes an 8-bit RGBA, non-interlaced PNG data URL, checking every chunk's CRC. */
function decodePng(dataUrl: string): Image {
  const prefix = 'data:image/png;base64,';
  expect(dataUrl.startsWith(prefix)).toBe(true);
  const png = Buffer.from(dataUrl.slice(prefix.length), 'base64');
  expect(png.subarray(0, 8)).toEqual(SIGNATURE);
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const typed = png.subarray(at + 4, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length), 'chunk CRC').toBe(crc32(typed));
    chunks.push({ type: typed.subarray(0, 4).toString('ascii'), data: typed.subarray(4) });
    at += 12 + length;
  }
  expect(chunks[0]?.type).toBe('IHDR');
  expect(chunks[chunks.length - 1]?.type).toBe('IEND');
  const header = chunks[0]!.data;
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  expect([header[8], header[9], header[12]]).toEqual([8, 6, 0]); // 8-bit RGBA, not interlaced
  const raw = inflateSync(
    Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)),
  );
  const stride = width * 4;
  expect(raw.length).toBe(height * (stride + 1));
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i += 1) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const left = i >= 4 ? pixels[y * stride + i - 4]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + i]! : 0;
      const upLeft = i >= 4 && y > 0 ? pixels[(y - 1) * stride + i - 4]! : 0;
      pixels[y * stride + i] = (x + predict(filter, left, up, upLeft)) & 0xff;
    }
  }
  return { width, height, pixels };
}

function predict(filter: number, a: number, b: number, c: number): number {
  if (filter === 0) return 0;
  if (filter === 1) return a;
  if (filter === 2) return b;
  if (filter === 3) return (a + b) >> 1;
  if (filter === 4) {
    const p = a + b - c;
    const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
  }
  throw new Error(`unknown PNG filter ${filter}`);
}

function pixel(image: Image, x: number, y: number): number[] {
  const at = (y * image.width + x) * 4;
  return [...image.pixels.subarray(at, at + 4)];
}

describe('the icon files', () => {
  it('are found under resources/ in the app, where electron-builder packs them', () => {
    expect(iconFiles('/opt/betdesk')).toEqual({
      window: join('/opt/betdesk', 'resources', 'icon.png'),
      tray: join('/opt/betdesk', 'resources', 'tray', 'tray.png'),
      trayWarning: join('/opt/betdesk', 'resources', 'tray', 'tray-warning.png'),
    });
  });

  it('exist in this checkout, each tray image with its @2x beside it', () => {
    const files = iconFiles(join(import.meta.dirname, '../../..'));
    for (const file of [files.window, files.tray, files.trayWarning]) {
      expect(existsSync(file), file).toBe(true);
    }
    for (const file of [files.tray, files.trayWarning]) {
      const double = file.replace(/\.png$/, '@2x.png');
      expect(existsSync(double), double).toBe(true);
    }
  });
});

describe('the unread dot (the Windows taskbar overlay)', () => {
  it('is a valid 16x16 RGBA PNG', () => {
    const image = decodePng(UNREAD_DOT_DATA_URL);
    expect([image.width, image.height]).toEqual([16, 16]);
  });

  it('is a red dot on a clear background', () => {
    const image = decodePng(UNREAD_DOT_DATA_URL);
    const [red, green, blue, alpha] = pixel(image, 8, 8);
    expect(red).toBeGreaterThan(180);
    expect(green).toBeLessThan(80);
    expect(blue).toBeLessThan(80);
    expect(alpha).toBe(255);
    for (const [x, y] of [
      [0, 0],
      [15, 0],
      [0, 15],
      [15, 15],
    ] as const) {
      expect(pixel(image, x, y)[3], `corner ${x},${y}`).toBe(0);
    }
  });
});
