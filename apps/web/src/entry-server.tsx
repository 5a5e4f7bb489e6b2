import { isAccountError } from '@embudo/contracts/runtime';
import { renderToString } from 'react-dom/server';
import { serverDeferredComponents } from './app/deferred-components-server';
import { Root } from './app/Root';
import { PAGE_STATE_ID, serialisePageState, type PageState } from './app/page-state';
import { chooseView } from './app/choose-view';
import { documentTitle } from './app/document-title';
import { STYLES } from './app/styles';
import { CATALOGS, type Catalogs } from './i18n/catalog';
import { preferredLanguage, resolveLanguage } from './i18n/languages';
import { translate } from './i18n/translate';

export interface RenderInput extends Omit<PageState, 'catalogs' | 'visitorLanguage'> {
  /** The request's Accept-Language header: the language of views no funnel's language applies to. */
  acceptLanguage?: string | undefined;
  /**
   * The server's document for this app (decision 0020): it writes the page's parts into an HTML
   * document that loads the hydration bundle (without a built bundle the page renders but stays static).
   */
  assets: { document: (parts: DocumentParts) => string };
}

/** What this page puts in its HTML document: the server adds the charset, viewport and bundle. */
export interface DocumentParts {
  lang: string;
  head: string;
  body: string;
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
 * The whole first HTML of a visitor page (architecture §3): the rendered tree, `lang`, `<title>`, and the
 * page data inlined for hydration, so the headline paints before any JavaScript runs.
 */
export function renderVisitorPage({
  context,
  site,
  baseDomains,
  assets,
  acceptLanguage,
  providerEmail = null,
}: RenderInput): RenderedPage {
  const data = site?.data ?? null;
  const visitorLanguage = preferredLanguage(acceptLanguage);
  const language = resolveLanguage(data?.language ?? visitorLanguage);
  // The same view choice as the browser's first render, for the status code and the title.
  const view = chooseView({
    context,
    site,
    loading: false,
    error: isAccountError(site?.message),
    redirecting: false,
  });
  const status = view.kind === 'notFound' || view.kind === 'invalidLink' ? 404 : 200;
  const title = documentTitle(view, data, (key) => translate(language, key));
  // The page's catalogue only: the browser hydrates with what the server rendered with.
  const catalogs: Catalogs = { [language]: CATALOGS[language] };
  const body = renderToString(
    <Root
      deferredComponents={serverDeferredComponents}
      context={context}
      initial={site}
      catalogs={catalogs}
      visitorLanguage={visitorLanguage}
      providerEmail={providerEmail}
    />,
  );
  // A not-found view shows nothing of the page data, so its HTML carries none (an address that
  // resolved a preview or a switched-off page must not hand out that page's content): only its
  // language, which the browser then renders the same view in.
  const inlined: PageState =
    view.kind === 'notFound'
      ? {
          context,
          site: site ? { ...site, data: null } : null,
          baseDomains,
          catalogs,
          visitorLanguage: language,
          providerEmail,
        }
      : { context, site, baseDomains, catalogs, visitorLanguage, providerEmail };
  const html = assets.document({
    lang: language,
    head: `<title>${escapeHtml(title)}</title><style>${STYLES}</style>`,
    body: `<div id="root">${body}</div><script id="${PAGE_STATE_ID}" type="application/json">${serialisePageState(inlined)}</script>`,
  });
  return { status, html };
}
