import { createContext, memo, Suspense, useContext, useEffect, useState, type ComponentType } from 'react';

/** When the page showed an element's place: marked at its first commit, read by the element. */
interface ShownClock {
  mark: () => void;
  /** The marked moment (epoch ms); now when not marked yet. */
  read: () => number;
}

function createShownClock(): ShownClock {
  let at: number | null = null;
  return {
    mark: () => {
      at ??= Date.now();
    },
    read: () => at ?? Date.now(),
  };
}

/**
 * When the page showed an element: the first commit of its place in the browser. An element whose
 * code arrives later (see `deferred`) still counts its delays from then, not from its arrival.
 */
const ShownClockContext = createContext<ShownClock | null>(null);

/** The moment an element's delays count from (epoch ms): its place's first commit, else its own mount. */
export function useShownAt(): () => number {
  const place = useContext(ShownClockContext);
  const [own] = useState(createShownClock);
  useEffect(() => {
    own.mark();
  }, [own]);
  return place?.read ?? own.read;
}

/**
 * An element in a Suspense boundary of its own, for code the browser loads on demand: the server
 * renders the element directly (`Part` is the component itself), the browser gives a lazy one.
 * During hydration the server's HTML stays as it is until the code has arrived, so nothing moves;
 * both sides render the same boundary, so the trees match. The boundary re-renders only when the
 * element's own props change, so an update of the page around it cannot drop the server's HTML
 * while the code is on its way. Its delays count from the first commit of its place.
 */
export function deferred<P extends object>(Part: ComponentType<P>): ComponentType<P> {
  function Deferred(props: P) {
    const [clock] = useState(createShownClock);
    useEffect(() => {
      clock.mark();
    }, [clock]);
    return (
      <ShownClockContext value={clock}>
        <Suspense fallback={null}>
          <Part {...props} />
        </Suspense>
      </ShownClockContext>
    );
  }
  return memo(Deferred);
}
