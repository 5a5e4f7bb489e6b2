import type { FunnelPageData, SiteContext, SiteResponse } from '@embudo/contracts';
import { lazy, type ComponentType } from 'react';
import { deferred } from '../lib/deferred';
import { fomoEnabled, validRange } from '../persuasion/persuasion-rules';
import { chooseView } from './choose-view';
import type { DeferredComponents } from './deferred-components';

/** One chunk for the four timed elements: a page that shows any of them fetches it once. */
const persuasion = () => import('../persuasion/persuasion-chunk');
const previewBar = () => import('../preview/PreviewBar');

const Nothing = () => null;

/**
 * A component whose code loads on demand, in the same boundary as the server's. Code that cannot be
 * loaded (a dropped connection, a new deployment) leaves the component out, not the page.
 */
function onDemand<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Lazy = lazy(() =>
    load().then(
      (Part) => ({ default: Part }),
      (error: unknown) => {
        console.error('Error loading a part of the page', error);
        return { default: Nothing as ComponentType<P> };
      },
    ),
  );
  // A lazy component takes the props of the component it loads.
  return deferred(Lazy as ComponentType<P>);
}

/** The deferred components for the browser: each one's code loads on demand. */
export const browserDeferredComponents: DeferredComponents = {
  LegalView: lazy(() => import('../legal/LegalPage').then((m) => ({ default: m.LegalPage }))),
  PreviewBar: onDemand(() => previewBar().then((m) => m.PreviewBar)),
  FakeProgressBar: onDemand(() => persuasion().then((m) => m.FakeProgressBar)),
  CountdownBanner: onDemand(() => persuasion().then((m) => m.CountdownBanner)),
  OnlineCount: onDemand(() => persuasion().then((m) => m.OnlineCount)),
  FomoPopups: onDemand(() => persuasion().then((m) => m.FomoPopups)),
  preload: () => {
    persuasion().catch(() => undefined);
  },
};

/**
 * Whether the page shows any timed element (visitor-behaviour §4.8): the deferred components `FunnelPage` and
 * `LandingPage` render.
 */
function showsPersuasion(data: FunnelPageData): boolean {
  if (fomoEnabled(data)) return true;
  if (data.layout === 'landing') return false;
  return (
    data.showFakeProgress ||
    Boolean(data.countDownTime) ||
    (data.isFakeUserOnlineOn && validRange(data.fakeUserRange) !== null)
  );
}

/**
 * Loads the chunks the page's first render shows, before it hydrates: the page then hydrates in one
 * pass, its timed elements with it, and their delays count from that moment, as decision 11 says.
 * A page without them (the demo's first page, most pages) waits for nothing, nor does a view that
 * does not show the page (a legal page, the chat redirect). A chunk that fails here is tried again
 * when its element renders.
 */
export async function loadDeferredComponentsFor(
  context: SiteContext,
  site: SiteResponse | null,
): Promise<void> {
  const data = site?.data;
  const view = chooseView({ context, site, loading: false, error: false, redirecting: false });
  if (!data || view.kind !== 'page' || context.queryParams?.open === 'wpp') return;
  const wanted: Promise<unknown>[] = [];
  if (showsPersuasion(data)) wanted.push(persuasion());
  if (data.previewToken) wanted.push(previewBar());
  await Promise.all(wanted).catch(() => undefined);
}
