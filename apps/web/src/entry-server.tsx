import { DEFAULT_LANGUAGE } from '@embudo/contracts';
import { renderToString } from 'react-dom/server';
import { eagerParts } from './app/eager-parts';
import { Root } from './app/Root';
import { PAGE_STATE_ID, serialisePageState, type PageState } from './app/page-state';
import { chooseView } from './app/choose-view';
import { STYLES } from './app/styles';
import { CATALOGS, type Catalogs } from './i18n/catalog';
import { resolveLanguage } from './i18n/languages';
import { translate } from './i18n/translate';
import { greetingName, personalise } from './lib/greeting';
import { htmlToText } from './lib/html-text';

export interface RenderInput extends Omit<PageState, 'catalogs'> {
  /** The hydration bundle (from the build manifest); without it the page renders but stays static. */
  assets?: { entryScript: string | null; styles: string[] };
}

export interface RenderedPage {
  status: number;
  html: string;
}

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * The whole first HTML of a visitor page (DESIGN §3): the rendered tree, `lang`, `<title>`, and the
 * page data inlined for hydration, so the headline paints before any JavaScript runs.
 */
export function renderVisitorPage({ context, site, baseDomains, assets }: RenderInput): RenderedPage {
  const data = site?.data ?? null;
  const lang = (data?.language ?? DEFAULT_LANGUAGE).toLowerCase();
  // The same view choice as the browser's first render, for the status code and the title.
  const view = chooseView({
    context,
    site,
    loading: false,
    error: site?.message === 'INACTIVE_SUBSCRIPTION' || site?.message === 'CANT_GET_USER',
    redirecting: false,
  });
  const status = view.kind === 'notFound' || view.kind === 'invalidLink' ? 404 : 200;
  const title =
    view.kind === 'page' && data
      ? htmlToText(
          personalise(data.headline, greetingName(data.lead.name, translate(lang, 'greeting.default'))),
        ) || 'Embudo'
      : view.kind === 'expired'
        ? data?.expiredPage?.title || translate(lang, 'expired.title')
        : view.kind === 'legal'
          ? translate(lang, view.page === 'terms' ? 'footer.terms' : 'footer.privacy')
          : translate(lang, 'notFound.title');
  // The page's catalogue only: the browser hydrates with what the server rendered with.
  const language = resolveLanguage(lang);
  const catalogs: Catalogs = { [language]: CATALOGS[language] };
  const body = renderToString(
    <Root parts={eagerParts} context={context} initial={site} catalogs={catalogs} />,
  );
  const scripts = assets?.entryScript
    ? `<script type="module" src="${escapeHtml(assets.entryScript)}"></script>`
    : '';
  const links = (assets?.styles ?? [])
    .map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`)
    .join('');
  const html = `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLES}</style>${links}</head><body><div id="root">${body}</div><script id="${PAGE_STATE_ID}" type="application/json">${serialisePageState({ context, site, baseDomains, catalogs })}</script>${scripts}</body></html>`;
  return { status, html };
}
