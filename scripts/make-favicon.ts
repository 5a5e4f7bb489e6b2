/**
 * Rebuilds the server's icon, apps/server/assets/favicon.ico (served at /favicon.ico): a funnel drawn
 * as SVG, rendered by Debian's Chromium at 16, 32 and 48 px with a transparent background, and the
 * three PNG images put in one ICO container (PNG-in-ICO, which every current browser reads).
 *
 *   npx tsx scripts/make-favicon.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../e2e/chromium';

const OUT = fileURLToPath(new URL('../apps/server/assets/favicon.ico', import.meta.url));
const SIZES = [16, 32, 48] as const;

/** A funnel: a wide mouth narrowing to a spout, amber with a darker rim, on a 48-unit grid. */
const FUNNEL = `
  <path d="M3 5h42a1.5 1.5 0 0 1 1.1 2.5L29 26v13.5a1.5 1.5 0 0 1-.8 1.3l-6 3.3A1.5 1.5 0 0 1 20 42.8V26L1.9 7.5A1.5 1.5 0 0 1 3 5z"
        fill="#f59e0b" stroke="#b45309" stroke-width="2.5" stroke-linejoin="round"/>`;

function svg(size: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 48 48">${FUNNEL}</svg>`;
}

/** ICONDIR, one ICONDIRENTRY per image, then the images (all numbers little-endian). */
export function icoOf(images: readonly { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1: icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // width; 0 means 256
    entry.writeUInt8(size >= 256 ? 0 : size, 1); // height
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map(({ png }) => png)]);
}

async function main(): Promise<void> {
  const browser = await launchChromium();
  try {
    const images: { size: number; png: Buffer }[] = [];
    for (const size of SIZES) {
      const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
      await page.setContent(
        `<!doctype html><html><body style="margin:0;background:transparent">${svg(size)}</body></html>`,
      );
      const png = await page.locator('svg').screenshot({ type: 'png', omitBackground: true });
      images.push({ size, png });
      await page.close();
    }
    const ico = icoOf(images);
    writeFileSync(OUT, ico);
    console.log(
      `${OUT}: ${ico.length} bytes (${images.map((i) => `${i.size} px ${i.png.length} B`).join(', ')})`,
    );
  } finally {
    await browser.close();
  }
}

await main();
