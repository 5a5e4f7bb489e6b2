import { LegalPage } from '../legal/LegalPage';
import { deferred } from '../lib/deferred';
import { CountdownBanner } from '../persuasion/CountdownBanner';
import { FakeProgressBar } from '../persuasion/FakeProgressBar';
import { FomoPopups } from '../persuasion/FomoPopups';
import { OnlineCount } from '../persuasion/OnlineCount';
import { PreviewBar } from '../preview/PreviewBar';
import type { DeferredComponents } from './deferred-components';

/**
 * The deferred components for the server's render: their code at hand, in the same boundaries as the
 * browser's.
 */
export const serverDeferredComponents: DeferredComponents = {
  LegalView: LegalPage,
  PreviewBar: deferred(PreviewBar),
  FakeProgressBar: deferred(FakeProgressBar),
  CountdownBanner: deferred(CountdownBanner),
  OnlineCount: deferred(OnlineCount),
  FomoPopups: deferred(FomoPopups),
  // Everything is at hand on the server.
  preload: () => undefined,
};
