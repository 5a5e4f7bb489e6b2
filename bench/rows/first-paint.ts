/**
 * Row 1: Largest Contentful Paint of a lead's page under Lighthouse's mobile profile, against the
 * floor: the same page as static HTML (the same markup, headline and styles, every script removed,
 * linked stylesheets inlined), served by the same server from its /static/ mount. The ratio is what
 * the page costs on top of the least any page with that headline could cost.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { viteAppDistDir } from '../../apps/server/src/http/vite-apps';
import { loadUntouched, openMobilePage } from '../lib/browser';
import { failedRow, makeRow, median, type Budget, type Row } from '../lib/report';

export interface PaintSample {
  lcpMs: number;
  /** The element the last LCP entry named, as tag.class, or the image's URL. */
  element: string;
  status: number;
}

export interface FirstPaintResult {
  pageUrl: string;
  floorUrl: string;
  page: PaintSample[];
  floor: PaintSample[];
  pageMedianMs: number;
  floorMedianMs: number;
}

export async function measureFirstPaint(
  browser: Browser,
  serverUrl: string,
  pageUrl: string,
  runs: number,
): Promise<FirstPaintResult> {
  const floor = await writeFloor(serverUrl, pageUrl);
  try {
    const probe = await fetch(floor.url);
    await probe.arrayBuffer();
    if (probe.status !== 200) throw new Error(`the floor page answered ${probe.status} at ${floor.url}`);
    const page: PaintSample[] = [];
    const floorSamples: PaintSample[] = [];
    const measureFloor = async () => {
      floor.ensure();
      floorSamples.push(await largestPaint(browser, floor.url));
    };
    // One load of each first, not counted: the browser's own first-use costs land on neither.
    await largestPaint(browser, pageUrl);
    floor.ensure();
    await largestPaint(browser, floor.url);
    // Interleaved, and alternating which goes first: drift in the machine's load hits both alike.
    for (let i = 0; i < runs; i++) {
      if (i % 2 === 0) {
        page.push(await largestPaint(browser, pageUrl));
        await measureFloor();
      } else {
        await measureFloor();
        page.push(await largestPaint(browser, pageUrl));
      }
    }
    const failed = [...page, ...floorSamples].find((s) => s.status !== 200);
    if (failed) throw new Error(`a page load answered ${failed.status}`);
    return {
      pageUrl,
      floorUrl: floor.url,
      page,
      floor: floorSamples,
      pageMedianMs: median(page.map((s) => s.lcpMs)),
      floorMedianMs: median(floorSamples.map((s) => s.lcpMs)),
    };
  } finally {
    floor.remove();
  }
}

async function largestPaint(browser: Browser, url: string): Promise<PaintSample> {
  const { context, page } = await openMobilePage(browser, true);
  try {
    // Registered before any of the page's scripts run; `buffered` also brings entries from before.
    await page.addInitScript(() => {
      const entries: { t: number; element: string }[] = [];
      (window as unknown as { __benchLcp: typeof entries }).__benchLcp = entries;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as LargestContentfulPaint[]) {
          const el = entry.element;
          entries.push({
            t: entry.startTime,
            element: el
              ? `<${el.tagName.toLowerCase()}${el.className ? ` class="${el.className}"` : ''}> ` +
                JSON.stringify(el.textContent.trim().slice(0, 40))
              : entry.url,
          });
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    // LCP can still change after load (hydration may paint a larger element): wait for quiet.
    const status = await loadUntouched(page, url, 15_000);
    const entries = await page.evaluate(
      () => (window as unknown as { __benchLcp: { t: number; element: string }[] }).__benchLcp,
    );
    const last = entries.at(-1);
    if (!last) throw new Error(`no largest-contentful-paint entry for ${url}`);
    return { lcpMs: last.t, element: last.element, status };
  } finally {
    await context.close();
  }
}

/**
 * The page's own first HTML without its scripts, with its linked stylesheets inlined, written into the
 * web bundle's directory: the server's /static/ mount serves it, so the floor shares the page's server
 * and latency. Removed again afterwards.
 */
async function writeFloor(
  serverUrl: string,
  pageUrl: string,
): Promise<{ url: string; ensure: () => void; remove: () => void }> {
  const response = await fetch(pageUrl);
  const html = await response.text();
  if (response.status !== 200) throw new Error(`the lead's page answered ${response.status}`);
  let floor = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '');
  for (const tag of floor.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = /\brel="([^"]*)"/i.exec(tag)?.[1]?.toLowerCase() ?? '';
    const href = /\bhref="([^"]*)"/i.exec(tag)?.[1];
    if (rel === 'stylesheet' && href) {
      const css = await (await fetch(new URL(href, pageUrl))).text();
      floor = floor.replace(tag, `<style>${css}</style>`);
    } else if (rel === 'modulepreload' || (rel === 'preload' && /\bas="script"/i.test(tag))) {
      floor = floor.replace(tag, '');
    }
  }
  const name = `bench-floor-${randomBytes(6).toString('hex')}.html`;
  const file = join(viteAppDistDir('web'), name);
  writeFileSync(file, floor);
  return {
    url: `${serverUrl}/static/${name}`,
    // A build (`vite build` empties the directory) may run while the bench does: write it again.
    ensure: () => {
      if (!existsSync(file)) writeFileSync(file, floor);
    },
    remove: () => {
      rmSync(file, { force: true });
    },
  };
}

export const FIRST_PAINT_BUDGET: Budget = { on: 'ratio', op: '<=', limit: 1.15 };
const FIRST_PAINT_MEASURE = 'LCP of a demo lead page';

export function firstPaintRows(result: FirstPaintResult): Row[] {
  const elements = (samples: PaintSample[]) => [...new Set(samples.map((s) => s.element || '?'))].join(', ');
  return [
    makeRow({
      row: 1,
      measure: `${FIRST_PAINT_MEASURE}, median of ${result.page.length}`,
      figure: { value: result.pageMedianMs, unit: 'ms' },
      baseline: { value: result.floorMedianMs, unit: 'ms', label: 'static floor' },
      budget: FIRST_PAINT_BUDGET,
      notes: [
        'Lighthouse mobile profile through CDP: 562.5 ms latency, 1.44 Mbit/s down, 0.675 Mbit/s up, CPU 4x slower, 412x823 @1.75',
        `floor: the page's HTML without scripts, stylesheets inlined, served from the same server's /static/`,
        `largest element, page: ${elements(result.page)}; floor: ${elements(result.floor)}`,
      ],
    }),
  ];
}

export function firstPaintFailed(error: unknown): Row[] {
  return [failedRow(1, FIRST_PAINT_MEASURE, FIRST_PAINT_BUDGET, error)];
}
