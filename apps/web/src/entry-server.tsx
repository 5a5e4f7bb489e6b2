import { DEFAULT_LANGUAGE } from '@embudo/contracts';
import { renderToString } from 'react-dom/server';
import { App } from './app/App';
import { PAGE_STATE_ID, serialisePageState, type PageState } from './app/page-state';
import { htmlToText } from './lib/html-text';

export interface RenderInput extends PageState {
  /** The hydration bundle (from the build manifest); without it the page renders but stays static. */
  assets?: { entryScript: string | null; styles: string[] };
}

export interface RenderedPage {
  status: number;
  html: string;
}

const STYLES = `
*{box-sizing:border-box}html,body{margin:0}body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#0a0a0a;color:#fafafa}
.funnel-page{min-height:100vh;padding:24px 16px;max-width:1000px;margin:0 auto;text-align:center;background-size:cover;background-position:center}
.headline{font-size:clamp(1.5rem,5vw,2.5rem);line-height:1.2;margin:.5em 0}.topline,.subheadline{font-size:1.1rem;margin:.5em 0}
.not-found{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;background:#000;color:#fff;text-align:center;padding:16px}
`;

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * The whole first HTML of a visitor page (DESIGN §3): the rendered tree, `lang`, `<title>`, and the
 * page data inlined for hydration, so the headline paints before any JavaScript runs.
 */
export function renderVisitorPage({ context, site, assets }: RenderInput): RenderedPage {
  const found = site?.message === 'PAGE_FOUNDED' && site.data !== null;
  const lang = (site?.data?.language ?? DEFAULT_LANGUAGE).toLowerCase();
  const title = found && site.data ? htmlToText(site.data.headline) || 'Embudo' : 'Page not found! 404';
  const body = renderToString(<App site={site} />);
  const scripts = assets?.entryScript
    ? `<script type="module" src="${escapeHtml(assets.entryScript)}"></script>`
    : '';
  const links = (assets?.styles ?? [])
    .map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`)
    .join('');
  const html = `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLES}</style>${links}</head><body><div id="root">${body}</div><script id="${PAGE_STATE_ID}" type="application/json">${serialisePageState({ context, site })}</script>${scripts}</body></html>`;
  return { status: found ? 200 : 404, html };
}
