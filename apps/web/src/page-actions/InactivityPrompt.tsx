import { Suspense } from 'react';
import { LazyInactivityModal } from '../modals/lazy';
import { useSession } from '../tracking/SessionProvider';

/**
 * '¿Sigues ahí?' once 15 idle minutes ended the session (visitor-behaviour §4.3), on every kind of page: the
 * modal's code loads only when it shows, and 'Continuar' opens the AFTER_INACTIVITY session.
 */
export function InactivityPrompt() {
  const { inactive, continueAfterInactivity } = useSession();
  return (
    <Suspense fallback={null}>
      {inactive ? <LazyInactivityModal open onContinue={continueAfterInactivity} /> : null}
    </Suspense>
  );
}
