import { useEffect, useState } from 'react';
import { browserStorage } from '../lib/browser-storage';
import type { LocationDeps, LocationRecord } from './location';

export interface VisitorLocationState {
  /** The visitor's record (the unknown-valued fallback when the lookup failed); null until known. */
  location: LocationRecord | null;
  /** The lookup has finished, or is not wanted (`enabled` false): loading may go on. */
  done: boolean;
}

/** The lookup's collaborators in the browser. */
export function browserLocationDeps(): LocationDeps {
  return {
    fetch: (input, init) => window.fetch(input, init),
    storage: browserStorage('local'),
    now: () => Date.now(),
    warn: (message, error) => {
      console.warn(message, error);
    },
  };
}

/** The one lookup of this page load, shared by every caller; null until first wanted. */
let lookup: Promise<LocationRecord | null> | null = null;

function lookUpOnce(): Promise<LocationRecord | null> {
  // Loaded after the first paint: the lookup's code is not in the page's first bundle.
  lookup ??= import('./location')
    .then(({ lookupLocation }) => lookupLocation(browserLocationDeps()))
    .then(
      (result) => result.record,
      // No retries: a failed lookup already answers the fallback; anything else leaves no location.
      () => null,
    );
  return lookup;
}

/**
 * The visitor's location (visitor-behaviour §4.2), looked up once per page load in the browser, when first
 * wanted. Nothing runs during server rendering, so the server and the hydrating browser both render
 * `{ location: null, done: false }` first.
 */
export function useVisitorLocation(enabled: boolean): VisitorLocationState {
  const [state, setState] = useState<{ location: LocationRecord | null; done: boolean }>({
    location: null,
    done: false,
  });
  useEffect(() => {
    if (!enabled) return;
    let gone = false;
    void lookUpOnce().then((location) => {
      if (!gone) setState({ location, done: true });
    });
    return () => {
      gone = true;
    };
  }, [enabled]);
  return { location: state.location, done: !enabled || state.done };
}
