import { createRoute } from '@tanstack/react-router';
import { appRoute } from '../routing/routes';
import { LeadsScreen, LeadsSearch } from './Leads';

/** A funnel's leads; the search and the page filter live in the address (`?q=ana&page=<id>`). */
export const leadsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'funnels/$funnelId/leads',
  validateSearch: LeadsSearch,
  component: function LeadsRoute() {
    const { funnelId } = leadsRoute.useParams();
    const search = leadsRoute.useSearch();
    return <LeadsScreen key={funnelId} funnelId={funnelId} search={search} />;
  },
});

export const leadsRoutes = [leadsRoute] as const;
