import { parseSiteContext } from '@embudo/contracts/runtime';
import { hydrateRoot } from 'react-dom/client';
import { readPageState } from './app/page-state';
import { Root } from './app/Root';
import { browserDeferredComponents, loadDeferredComponentsFor } from './app/deferred-components-browser';
import { resolveLanguage } from './i18n/languages';

/** Hydrates the server-rendered page with the data the server inlined (architecture §3). */
const root = document.getElementById('root');
const state = readPageState(document);
// The browser reads its own address with the server's function and base domains (visitor-behaviour §2.1).
const context = state ? parseSiteContext(window.location.href, state.baseDomains) : null;
if (root && state && context) {
  // A page with timed elements or a preview bar first loads their chunk, and hydrates in one pass.
  void loadDeferredComponentsFor(context, state.site).then(() => {
    hydrateRoot(
      root,
      <Root
        deferredComponents={browserDeferredComponents}
        context={context}
        initial={state.site}
        catalogs={state.catalogs ?? {}}
        visitorLanguage={resolveLanguage(state.visitorLanguage)}
        providerEmail={state.providerEmail ?? null}
      />,
    );
  });
}
