import { lazy } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createQueryClient } from './api/query-client';
import { readPageState } from './app/page-state';
import { Root } from './app/Root';

/** Hydrates the server-rendered page with the data the server inlined (DESIGN §3). */
const root = document.getElementById('root');
const state = readPageState(document);
const LegalView = lazy(() => import('./legal/LegalPage').then((m) => ({ default: m.LegalPage })));
if (root && state) {
  hydrateRoot(
    root,
    <Root client={createQueryClient()} LegalView={LegalView} context={state.context} initial={state.site} />,
  );
}
