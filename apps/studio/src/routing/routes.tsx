import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, Outlet, redirect } from '@tanstack/react-router';
import { AppShell } from '../layout/AppShell';
import { AuthLayout } from '../layout/AuthLayout';
import { NotFound } from '../layout/NotFound';
import { sessionQuery, setupStateQuery } from '../session/session';

export interface RouterContext {
  queryClient: QueryClient;
}

/** Every screen of the Studio. Its paths are under /studio (the router's basepath). */
export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFound,
});

/** Screens for someone not signed in: sign-in, the first run, an invitation. */
export const publicRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'public',
  component: AuthLayout,
});

/**
 * Screens of a signed-in owner, in the app's shell. Without a session: the first run while no user
 * exists, else sign-in, which comes back here after (`?next=`).
 */
export const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    const session = await context.queryClient.query({ ...sessionQuery, staleTime: 60_000 });
    if (session) return;
    const setup = await context.queryClient.query(setupStateQuery);
    if (setup.needed) throw redirect({ to: '/setup' });
    throw redirect({ to: '/sign-in', search: { next: location.href } });
  },
  component: AppShell,
});
