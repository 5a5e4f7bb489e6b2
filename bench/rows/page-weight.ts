/**
 * Row 2: what a visitor's phone downloads before the visitor touches the page. Every response from
 * navigation until the network has been quiet for a while (load, network idle, then a settle time,
 * no clicks) is recorded; JavaScript and CSS are weighed gzip-compressed. The server may send them
 * uncompressed, so each body is compressed here (zlib, default level): the figure is what a gzip
 * transfer would cost, whatever the server does today, and the server's encoding is noted.
 */
import { gzipSync } from 'node:zlib';
import type { Browser, Response } from 'playwright-core';
import { loadUntouched, openMobilePage } from '../lib/browser';
import { failedRow, makeRow, type Budget, type Row } from '../lib/report';

export interface WeighedResponse {
  url: string;
  kind: 'javascript' | 'css' | 'document' | 'other';
  status: number;
  /** The body as the page received it (decoded), and gzip-compressed by the bench. */
  bytes: number;
  gzipBytes: number;
  /** content-encoding as the server sent it. */
  encoding: string;
}

export interface PageWeight {
  url: string;
  javascriptGzipBytes: number;
  cssGzipBytes: number;
  documentGzipBytes: number;
  /** Every request to another host than the page's, answered or not. */
  thirdPartyRequests: string[];
  requests: number;
  responses: WeighedResponse[];
  /** The encodings the server sent JavaScript and CSS with ("identity" when none). */
  serverEncodings: string[];
}

export async function measurePageWeight(
  browser: Browser,
  pageUrl: string,
  settleMs: number,
): Promise<PageWeight> {
  const { context, page } = await openMobilePage(browser, false);
  const host = new URL(pageUrl).host;
  const requested: string[] = [];
  const weighing: Promise<WeighedResponse | null>[] = [];
  page.on('request', (request) => requested.push(request.url()));
  page.on('response', (response) => weighing.push(weigh(response)));
  try {
    const status = await loadUntouched(page, pageUrl, 15_000);
    if (status !== 200) throw new Error(`the lead's page answered ${status}`);
    await page.waitForTimeout(settleMs);
    // Only what arrived before this point counts: the page is about to be touched.
    const responses = (await Promise.all([...weighing])).filter((r): r is WeighedResponse => r !== null);
    const failed = responses.find((r) => r.kind !== 'other' && r.status >= 400);
    if (failed) throw new Error(`${failed.url} answered ${failed.status} (was the bundle rebuilt?)`);
    const sum = (kind: WeighedResponse['kind']) =>
      responses.filter((r) => r.kind === kind).reduce((total, r) => total + r.gzipBytes, 0);
    const web = requested.filter((url) => /^https?:/i.test(url));
    return {
      url: pageUrl,
      javascriptGzipBytes: sum('javascript'),
      cssGzipBytes: sum('css'),
      documentGzipBytes: sum('document'),
      thirdPartyRequests: web.filter((url) => new URL(url).host !== host),
      requests: web.length,
      responses,
      serverEncodings: [
        ...new Set(
          responses.filter((r) => r.kind === 'javascript' || r.kind === 'css').map((r) => r.encoding),
        ),
      ],
    };
  } finally {
    await context.close();
  }
}

async function weigh(response: Response): Promise<WeighedResponse | null> {
  const request = response.request();
  const type = request.resourceType();
  const contentType = (await response.headerValue('content-type').catch(() => null)) ?? '';
  const kind: WeighedResponse['kind'] =
    type === 'script' || /javascript/i.test(contentType)
      ? 'javascript'
      : type === 'stylesheet' || /text\/css/i.test(contentType)
        ? 'css'
        : type === 'document'
          ? 'document'
          : 'other';
  const encoding = (await response.headerValue('content-encoding').catch(() => null)) ?? 'identity';
  // Media and images are only counted, not read: a video may still be streaming.
  if (kind === 'other') {
    const length = Number((await response.headerValue('content-length').catch(() => null)) ?? 0);
    return { url: response.url(), kind, status: response.status(), bytes: length, gzipBytes: 0, encoding };
  }
  const body = await response.body().catch(() => null);
  if (!body) return null;
  return {
    url: response.url(),
    kind,
    status: response.status(),
    bytes: body.length,
    gzipBytes: gzipSync(body).length,
    encoding,
  };
}

/** 1 KB = 1,000 bytes, as bundlers report gzip sizes: the stricter reading of the budget. */
const KB = 1000;
const JS_MEASURE = 'JavaScript before interaction, gzip';
const CSS_MEASURE = 'CSS before interaction, gzip';
const THIRD_PARTY_MEASURE = 'third-party requests before interaction';
const JS_BUDGET: Budget = { on: 'figure', op: '<=', limit: 90 };
const THIRD_PARTY_BUDGET: Budget = { on: 'figure', op: '=', limit: 0 };

export function pageWeightRows(result: PageWeight, settleMs: number): Row[] {
  const scripts = result.responses.filter((r) => r.kind === 'javascript');
  return [
    makeRow({
      row: 2,
      measure: JS_MEASURE,
      figure: { value: result.javascriptGzipBytes / KB, unit: 'KB' },
      budget: JS_BUDGET,
      notes: [
        `${scripts.length} scripts: ${scripts.map((r) => `${new URL(r.url).pathname} ${(r.gzipBytes / KB).toFixed(1)} KB`).join(', ')}`,
        `server encoding of JS/CSS: ${result.serverEncodings.join(', ') || 'none sent'}; every body gzip-compressed by the bench (zlib default level), 1 KB = 1,000 bytes`,
        `load, network idle, then ${settleMs / 1000} s, no input; ${result.requests} requests in all, the HTML ${(result.documentGzipBytes / KB).toFixed(1)} KB gzip`,
      ],
    }),
    makeRow({ row: 2, measure: CSS_MEASURE, figure: { value: result.cssGzipBytes / KB, unit: 'KB' } }),
    makeRow({
      row: 2,
      measure: THIRD_PARTY_MEASURE,
      figure: { value: result.thirdPartyRequests.length, unit: 'requests' },
      budget: THIRD_PARTY_BUDGET,
      notes: result.thirdPartyRequests.slice(0, 5).map((url) => `third-party: ${url}`),
    }),
  ];
}

export function pageWeightFailed(error: unknown): Row[] {
  return [
    failedRow(2, JS_MEASURE, JS_BUDGET, error),
    failedRow(2, CSS_MEASURE, null, error),
    failedRow(2, THIRD_PARTY_MEASURE, THIRD_PARTY_BUDGET, error),
  ];
}
