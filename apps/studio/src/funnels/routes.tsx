import { createRoute, redirect } from '@tanstack/react-router';
import { appRoute } from '../routing/routes';
import { FunnelSettingsScreen } from './FunnelSettings';
import { FunnelsScreen } from './FunnelsList';
import { PageFormScreen } from './PageForm';
import { PagesScreen } from './Pages';

export const funnelsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'funnels',
  component: FunnelsScreen,
});

/** A funnel's own address opens its pages. */
const funnelRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'funnels/$funnelId',
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/funnels/$funnelId/pages', params, replace: true });
  },
});

const funnelSettingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'funnels/$funnelId/settings',
  component: function FunnelSettingsRoute() {
    const { funnelId } = funnelSettingsRoute.useParams();
    return <FunnelSettingsScreen key={funnelId} funnelId={funnelId} />;
  },
});

const pagesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'funnels/$funnelId/pages',
  component: function PagesRoute() {
    const { funnelId } = pagesRoute.useParams();
    return <PagesScreen key={funnelId} funnelId={funnelId} />;
  },
});

const pageFormRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'funnels/$funnelId/pages/$pageId',
  component: function PageFormRoute() {
    const { funnelId, pageId } = pageFormRoute.useParams();
    return <PageFormScreen key={pageId} funnelId={funnelId} pageId={pageId} />;
  },
});

export const funnelsRoutes = [
  funnelsRoute,
  funnelRoute,
  funnelSettingsRoute,
  pagesRoute,
  pageFormRoute,
] as const;
