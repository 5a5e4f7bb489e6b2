import { createContext, useContext, type ComponentProps, type ComponentType } from 'react';
import type { LegalPageProps } from '../legal/LegalPage';
import type { CountdownBanner } from '../persuasion/CountdownBanner';
import type { FakeProgressBar } from '../persuasion/FakeProgressBar';
import type { FomoPopups } from '../persuasion/FomoPopups';
import type { OnlineCount } from '../persuasion/OnlineCount';
import type { PreviewBar } from '../preview/PreviewBar';

/**
 * The deferred components: the components of the page that few visitors see, or see only seconds
 * after it appears: the legal texts, the owner's preview bar and the timed persuasion elements (visitor-behaviour
 * §4.8). Their code is not in the bundle every visitor downloads before touching the page (decision
 * 12). Each entry chooses how they come: the server renders them directly
 * (`deferred-components-server`); the browser loads their code on demand
 * (`deferred-components-browser`): before hydrating, when the page shows them from the start; else
 * when they first render, keeping the server's HTML on screen until the code has arrived.
 */
export interface DeferredComponents {
  /** In its own boundary in `App`, with the spinner as fallback. */
  LegalView: ComponentType<LegalPageProps>;
  /** These four and the preview bar come each in a boundary of their own (`deferred`). */
  PreviewBar: ComponentType<ComponentProps<typeof PreviewBar>>;
  FakeProgressBar: ComponentType<ComponentProps<typeof FakeProgressBar>>;
  CountdownBanner: ComponentType<ComponentProps<typeof CountdownBanner>>;
  OnlineCount: ComponentType<ComponentProps<typeof OnlineCount>>;
  FomoPopups: ComponentType<ComponentProps<typeof FomoPopups>>;
  /**
   * Fetches ahead the code a page change may need at once (the timed elements of the next page),
   * so that it shows without waiting; called at the visitor's first click or key.
   */
  preload: () => void;
}

const DeferredComponentsContext = createContext<DeferredComponents | null>(null);

export const DeferredComponentsProvider = DeferredComponentsContext;

/** The deferred components the entry chose (see `DeferredComponents`). */
export function useDeferredComponents(): DeferredComponents {
  const components = useContext(DeferredComponentsContext);
  if (!components) throw new Error('useDeferredComponents must be used within a DeferredComponentsProvider');
  return components;
}
