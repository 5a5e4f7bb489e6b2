import type { QueryClient } from '@tanstack/react-query';
import { createRoute, createRouter, redirect } from '@tanstack/react-router';
import { analyticsRoutes } from '../analytics/routes';
import { authRoutes } from '../auth/routes';
import { funnelsRoutes } from '../funnels/routes';
import { leadsRoutes } from '../leads/routes';
import { profileRoute } from '../profile/routes';
import { appRoute, publicRoute, rootRoute } from '../routing/routes';
import { settingsRoutes } from '../settings/routes';

/** The Studio's home: the funnels. */
const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/funnels', replace: true });
  },
});

/**
 * Every screen. A feature exports its routes (children of `appRoute` for signed-in screens, of
 * `publicRoute` for signed-out ones) and is added here, one entry.
 */
export const routeTree = rootRoute.addChildren([
  publicRoute.addChildren([...authRoutes]),
  appRoute.addChildren([
    homeRoute,
    ...funnelsRoutes,
    ...leadsRoutes,
    ...analyticsRoutes,
    settingsRoutes,
    profileRoute,
  ]),
]);

export function createStudioRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    basepath: '/studio',
    context: { queryClient },
    defaultPreload: 'intent',
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createStudioRouter>;
  }
}
