import { ROUTE_PATHS } from '@embudo/contracts/client';
import { QueryClientProvider, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { api } from '../api/api';
import { createQueryClient } from '../api/query-client';
import { browserLanguages, chooseLanguage, LanguageProvider, type Language } from '../i18n/i18n';
import { sessionQuery, storeSession } from '../session/session';
import { ToastProvider } from '../ui/toast';
import { createStudioRouter } from './router';

/** Paths of the signed-out screens: a 401 there is the screen's own business. */
const PUBLIC_PATHS = ['/sign-in', '/setup', '/invite/'];

function createStudio() {
  let router: ReturnType<typeof createStudioRouter> | null = null;
  let checking = false;
  // A 401 anywhere: if the session is really gone, sign in and come back here afterwards.
  const queryClient = createQueryClient(() => {
    if (checking || !router) return;
    const current = router;
    checking = true;
    void queryClient
      .query({ ...sessionQuery, staleTime: 0 })
      .then(async (session) => {
        const { pathname, href } = current.state.location;
        if (session || PUBLIC_PATHS.some((path) => pathname.startsWith(path))) return;
        await current.navigate({ to: '/sign-in', search: { next: href } });
      })
      .catch(() => undefined)
      .finally(() => {
        checking = false;
      });
  });
  router = createStudioRouter(queryClient);
  return { queryClient, router };
}

/**
 * The Studio's language: the signed-in user's setting, else what was picked on a signed-out screen,
 * else the browser's, else Spanish. Picking one while signed in saves it to the profile.
 */
function Language({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery).data ?? null;
  const [picked, setPicked] = useState<Language | null>(null);
  const language = chooseLanguage(session?.user.language ?? picked, browserLanguages());
  const save = useMutation({
    mutationFn: (next: Language) => api(ROUTE_PATHS.auth.updateProfile, { body: { language: next } }),
    onSuccess: (next) => {
      storeSession(queryClient, next);
    },
  });
  const setLanguage = useCallback(
    (next: Language) => {
      setPicked(next);
      // Signed out, the choice is only this page's.
      if (session) save.mutate(next);
    },
    [session, save],
  );
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  return (
    <LanguageProvider language={language} setLanguage={setLanguage}>
      {children}
    </LanguageProvider>
  );
}

export function App() {
  const [{ queryClient, router }] = useState(createStudio);
  return (
    <QueryClientProvider client={queryClient}>
      <Language>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </Language>
    </QueryClientProvider>
  );
}
