import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { expect } from 'vitest';
import { seedDemoOwner, type DemoStudio } from '../apps/server/src/modules/demo/demo-owner';
import { seedDemo, type DemoSummary } from '../apps/server/src/modules/demo/demo.seed';
import { startTestServer, type TestServer } from '../apps/server/test/server';

/** The Studio's browser bundle, built as `npm run build` builds it (the e2e setup builds only the visitor app). */
export async function buildStudio(): Promise<void> {
  await build({
    configFile: fileURLToPath(new URL('../apps/studio/vite.config.ts', import.meta.url)),
    logLevel: 'warn',
  });
}

export interface StudioServer {
  server: TestServer;
  demo: DemoSummary;
  studio: DemoStudio;
}

/** A real server with the demo and its Studio owner, as `npm start` makes them (`env`: more settings). */
export async function startStudioServer(env: Record<string, string> = {}): Promise<StudioServer> {
  const server = await startTestServer('sqlite', { RATE_LIMIT_PER_MINUTE: '0', PIXEL_WORKER: 'off', ...env });
  const demo = await seedDemo(server.services, server.url);
  const studio = await seedDemoOwner(server.services, demo.accountSlug);
  return { server, demo, studio };
}

/** A browser context in English at the given width, signed in to the Studio as the demo owner. */
export async function signIn(
  browser: Browser,
  { server, studio }: StudioServer,
  width = 1280,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width, height: 900 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await page.goto(`${server.url}/studio/sign-in`);
  await page.getByLabel('E-mail').fill(studio.email);
  await page.getByLabel('Password').fill(studio.password ?? expect.unreachable('the demo password'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Funnels' }).waitFor();
  return { context, page };
}

/** axe-core over the page as it is now: the serious and critical violations, by rule and target. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const source = await import('axe-core').then((axe) => axe.default.source);
  // Evaluated by the DevTools protocol, not as a page script: the Studio's CSP allows none inline.
  await page.evaluate(source);
  const results = await page.evaluate(async () => {
    interface AxeResults {
      violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
    }
    const axe = (window as unknown as { axe: { run: (context: unknown) => Promise<AxeResults> } }).axe;
    return axe.run(document);
  });
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/**
 * Screenshots for docs/screenshots, when STUDIO_SCREENSHOTS=1 (they are committed, not made by every
 * run). A whole screen is taken with the window as tall as the screen, so that the shell's sidebar
 * (as tall as the window) runs down the whole picture; nothing has focus, at the top.
 */
export async function screenshot(page: Page, name: string, whole = true): Promise<void> {
  if (process.env.STUDIO_SCREENSHOTS !== '1') return;
  const viewport = page.viewportSize() ?? { width: 1280, height: 900 };
  if (whole) {
    await page.evaluate(() => {
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
      window.scrollTo(0, 0);
    });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: viewport.width, height: Math.max(height, viewport.height) });
  }
  await page.screenshot({ path: fileURLToPath(new URL(`../docs/screenshots/${name}.png`, import.meta.url)) });
  if (whole) await page.setViewportSize(viewport);
}
