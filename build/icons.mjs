// `npm run icons`: every icon Betdesk ships, made from the one source image build/icon.svg.
// sharp rasterises the SVG at each size (rendered at that size, not scaled down from a large
// bitmap, so small sizes stay sharp) and composes the tray's warning badge; icon-gen packs the
// .icns and .ico files. The outputs are committed, so a build never needs to run this; the same
// source gives the same bytes. `--out DIR` writes the same layout under DIR instead of the repo.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import icongen from 'icon-gen';
import sharp from 'sharp';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = join(root, 'build', 'icon.svg');
/** The source's viewBox edge, in SVG user units. */
const SOURCE_EDGE = 1024;

/** electron-builder's Linux icon set (build/icons/NxN.png); also what the .icns and .ico take. */
const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const ICNS_SIZES = [16, 32, 64, 128, 256, 512, 1024];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
const FAVICON_ICO_SIZES = [16, 32, 48];

/**
 * The tray's warning badge, in the source's coordinates: a red disc with a white "!" in the
 * top-right corner, ringed in the tile's navy so it stands off the arrows beneath it. Shapes,
 * not text, so no font on the machine changes the pixels.
 */
const WARNING_BADGE = `<svg xmlns="http://www.w3.org/2000/svg" width="${SOURCE_EDGE}" height="${SOURCE_EDGE}" viewBox="0 0 ${SOURCE_EDGE} ${SOURCE_EDGE}">
  <circle cx="736" cy="288" r="288" fill="#0e2138"/>
  <circle cx="736" cy="288" r="240" fill="#e5243b"/>
  <rect x="690" y="112" width="92" height="236" rx="46" fill="#ffffff"/>
  <circle cx="736" cy="422" r="50" fill="#ffffff"/>
</svg>`;

/** Renders an SVG at size x size pixels, with fixed PNG settings so the bytes are repeatable. */
function render(svg, size) {
  return sharp(Buffer.from(svg), { density: (72 * size) / SOURCE_EDGE })
    .resize(size, size, { fit: 'fill' })
    .png({ compressionLevel: 9, adaptiveFiltering: false, palette: false });
}

async function icon(svg, size) {
  return render(svg, size).toBuffer();
}

/** `base` (the source rendered at `size`) with the warning badge on it. */
async function warningIcon(base, size) {
  const badge = await icon(WARNING_BADGE, size);
  return sharp(base)
    .composite([{ input: badge }])
    .png({ compressionLevel: 9, adaptiveFiltering: false, palette: false })
    .toBuffer();
}

/** Runs icon-gen on a directory of `<N>.png` files and returns the one file it wrote. */
async function pack(pngDir, kind, sizes) {
  const dest = mkdtempSync(join(tmpdir(), 'betdesk-icon-gen-'));
  try {
    const [file] = await icongen(pngDir, dest, { report: false, [kind]: { name: 'icon', sizes } });
    if (file === undefined) throw new Error(`icon-gen wrote no .${kind}`);
    return readFileSync(file);
  } finally {
    rmSync(dest, { recursive: true, force: true });
  }
}

/** Every output, by its path relative to the output root. */
export async function makeIcons(source = readFileSync(SOURCE, 'utf8')) {
  const files = new Map();
  // Each size is rendered once, whichever outputs use it.
  const rendered = new Map();
  const at = (size) => {
    if (!rendered.has(size)) rendered.set(size, icon(source, size));
    return rendered.get(size);
  };
  const pngDir = mkdtempSync(join(tmpdir(), 'betdesk-icons-'));
  try {
    for (const size of LINUX_SIZES) {
      const png = await at(size);
      writeFileSync(join(pngDir, `${size}.png`), png);
      files.set(`build/icons/${size}x${size}.png`, png);
    }
    files.set('build/icon.png', await at(1024));
    files.set('build/icon.icns', await pack(pngDir, 'icns', ICNS_SIZES));
    files.set('build/icon.ico', await pack(pngDir, 'ico', ICO_SIZES));
    files.set('src/renderer/public/favicon.ico', await pack(pngDir, 'ico', FAVICON_ICO_SIZES));
  } finally {
    rmSync(pngDir, { recursive: true, force: true });
  }
  files.set('src/renderer/public/favicon.png', await at(64));
  files.set('resources/icon.png', await at(512));
  files.set('resources/tray/tray.png', await at(32));
  files.set('resources/tray/tray@2x.png', await at(64));
  files.set('resources/tray/tray-warning.png', await warningIcon(await at(32), 32));
  files.set('resources/tray/tray-warning@2x.png', await warningIcon(await at(64), 64));
  return files;
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const out = values.out === undefined ? root : resolve(values.out);
  const files = await makeIcons();
  for (const [path, bytes] of files) {
    const target = join(out, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, bytes);
  }
  console.log(`betdesk icons: ${files.size} files from build/icon.svg into ${out}`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
