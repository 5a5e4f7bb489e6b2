import type { FunnelPageData, SiteContext, SiteResponse } from '@embudo/contracts';
import { hostOf, isAccountError } from '@embudo/contracts/runtime';
import { Suspense, useEffect, useMemo } from 'react';
import { useSiteData } from '../api/use-site-data';
import { onFirstInteraction } from '../lib/first-interaction';
import { FunnelPage } from '../funnel-page/FunnelPage';
import type { Catalogs } from '../i18n/catalog';
import { I18nProvider, useT } from '../i18n/I18nProvider';
import { resolveLanguage, type Language } from '../i18n/languages';
import { LandingPage } from '../landing/LandingPage';
import { useVisitorLocation } from '../location/use-visitor-location';
import { SessionProvider } from '../tracking/SessionProvider';
import { Expired } from '../screens/Expired';
import { InvalidLink } from '../screens/InvalidLink';
import { NotFound } from '../screens/NotFound';
import { Spinner } from '../screens/Spinner';
import { chooseView, type View } from './choose-view';
import { documentTitle } from './document-title';
import { DeferredComponentsProvider, type DeferredComponents } from './deferred-components';
import { useChatRedirect } from './use-chat-redirect';

export interface AppProps {
  /**
   * The legal pages, the preview bar and the timed persuasion elements: rendered directly on the
   * server, loaded on demand in the browser, so their code stays out of the bundle every visitor
   * downloads (see `DeferredComponents`).
   */
  deferredComponents: DeferredComponents;
  context: SiteContext;
  /** What the server resolved while rendering; the browser starts from the same data. */
  initial: SiteResponse | null;
  /** The catalogues of texts at hand: every one on the server, the page's own in the browser. */
  catalogs: Catalogs;
  /** The visitor's own language (Accept-Language), where no funnel's language applies. */
  visitorLanguage: Language;
  /** The operator's contact address for the legal texts, where the account names none. */
  providerEmail: string | null;
}

/** The one entry point (visitor-behaviour §2.2): the view, chosen in the spec's order, in the page's language. */
export function App({
  deferredComponents,
  context,
  initial,
  catalogs,
  visitorLanguage,
  providerEmail,
}: AppProps) {
  const { LegalView, PreviewBar } = deferredComponents;
  const hasAddress = Boolean(context.userToken ?? context.queryParams?.previewToken);
  const query = useSiteData(context, initial, hasAddress);
  const site = query.site;
  const data = site?.data ?? null;
  const redirecting = useChatRedirect(context, data);
  const path = usePath(context);

  const view = chooseView({
    context,
    site,
    loading: hasAddress && query.pending,
    error: query.error || (site !== null && isAccountError(site.message)),
    redirecting,
  });
  const language = resolveLanguage(data?.language ?? visitorLanguage);
  useDocumentLanguage(language);
  // Once the visitor acts, a page change may follow: its deferred components' code is fetched ahead.
  useEffect(() => onFirstInteraction(deferredComponents.preload), [deferredComponents]);
  // Where the visitor is, for the session's details: only on a tracked page (not in preview, visitor-behaviour
  // §4.1), so no other view re-renders while it hydrates.
  const location = useVisitorLocation(view.kind === 'page' && data !== null && isTracked(data));
  const sessionLocation = useMemo(
    () =>
      location.done
        ? location.location
          ? { ip: location.location.ip, location: location.location.location }
          : {}
        : null,
    [location.done, location.location],
  );

  let screen: React.ReactNode;
  switch (view.kind) {
    case 'loading':
      screen = <Spinner />;
      break;
    case 'legal':
      // A boundary of its own: the browser fetches the legal texts only when they are shown, and
      // keeps the server's HTML on screen until then.
      screen = (
        <Suspense fallback={<Spinner />}>
          <LegalView
            kind={view.page}
            language={language}
            domain={hostOf(context.userDomain)}
            email={data?.contactEmail ?? providerEmail}
          />
        </Suspense>
      );
      break;
    case 'notFound':
      screen = <NotFound />;
      break;
    case 'expired':
      screen = <Expired page={data?.expiredPage ?? null} />;
      break;
    case 'invalidLink':
      screen = <InvalidLink name={data?.lead.name || context.userToken || ''} />;
      break;
    case 'page': {
      if (!data) throw new Error('a page view without page data');
      const preview = data.previewToken ? (
        <PreviewBar token={data.previewToken} nextToken={data.action.nextPreviewPageToken} />
      ) : null;
      const reload = query.refetch;
      screen = (
        <DeferredComponentsProvider value={deferredComponents}>
          <SessionProvider
            token={data.previewToken ? null : (context.userToken ?? null)}
            tracking={isTracked(data)}
            location={sessionLocation}
          >
            {data.layout === 'landing' ? (
              <LandingPage data={data} path={path} reload={reload}>
                {preview}
              </LandingPage>
            ) : (
              <FunnelPage data={data} path={path} reload={reload}>
                {preview}
              </FunnelPage>
            )}
          </SessionProvider>
        </DeferredComponentsProvider>
      );
      break;
    }
  }
  return (
    <I18nProvider language={language} catalogs={catalogs}>
      <DocumentTitle view={view} data={data} />
      {screen}
    </I18nProvider>
  );
}

/** Tracking is off in preview and on an OFFERT page the lead completed (visitor-behaviour §4.3, §5). */
function isTracked(data: FunnelPageData): boolean {
  return data.previewToken === null && !(data.buttonAction === 'OFFERT' && data.isComplete);
}

/** The current path with the query the page keeps, for the footer's legal links. */
function usePath(context: SiteContext): string {
  const segments = [context.userSlug, context.userToken].filter((s): s is string => Boolean(s));
  const query = context.queryParams?.previewToken
    ? `?previewToken=${encodeURIComponent(context.queryParams.previewToken)}`
    : '';
  return `/${segments.map(encodeURIComponent).join('/')}${query}`;
}

/**
 * The tab's title follows the view and the page on screen: the server wrote the first one, and a
 * lead who moves to the next page (video end, NEXT-PAGE click) sees that page's headline there too.
 */
function DocumentTitle({ view, data }: { view: View; data: FunnelPageData | null }) {
  const t = useT();
  const title = documentTitle(view, data, t);
  const loading = view.kind === 'loading';
  useEffect(() => {
    // While the next page loads, the tab keeps the title of the page that was on screen.
    if (!loading) document.title = title;
  }, [title, loading]);
  return null;
}

/** `<html lang>` follows the page's language when it changes in the browser (the server sets the first). */
function useDocumentLanguage(language: string): void {
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
}
