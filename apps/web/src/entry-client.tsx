import { parseSiteContext } from '@embudo/contracts/runtime';
import { lazy } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createQueryClient } from './api/query-client';
import { readPageState } from './app/page-state';
import { Root } from './app/Root';

/** Hydrates the server-rendered page with the data the server inlined (DESIGN §3). */
const root = document.getElementById('root');
const state = readPageState(document);
// The browser reads its own address with the server's function and base domains (spec §2.1).
const context = state ? parseSiteContext(window.location.href, state.baseDomains) : null;
const LegalView = lazy(() => import('./legal/LegalPage').then((m) => ({ default: m.LegalPage })));
if (root && state && context) {
  hydrateRoot(
    root,
    <Root client={createQueryClient()} LegalView={LegalView} context={context} initial={state.site} />,
  );
}
