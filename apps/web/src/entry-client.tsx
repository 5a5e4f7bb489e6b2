import { hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { readPageState } from './app/page-state';

/** Hydrates the server-rendered page with the data the server inlined (DESIGN §3). */
const root = document.getElementById('root');
const state = readPageState(document);
if (root && state) hydrateRoot(root, <App site={state.site} />);
