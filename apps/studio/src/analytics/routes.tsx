import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { appRoute } from '../routing/routes';
import { FollowUps } from './FollowUps';
import { FunnelOverview } from './FunnelOverview';
import { LeadTimeline } from './LeadTimeline';
import { PageDashboard } from './PageDashboard';
import { RangeSearch } from './range';

/** A funnel's analytics tab: its steps, its pages, the way to the follow-ups (`?range=7d`, or `?range=custom&from=&to=`). */
const analyticsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'funnels/$funnelId/analytics',
  validateSearch: RangeSearch,
  component: function AnalyticsRoute() {
    const { funnelId } = analyticsRoute.useParams();
    const search = analyticsRoute.useSearch();
    const navigate = analyticsRoute.useNavigate();
    return (
      <FunnelOverview
        key={funnelId}
        funnelId={funnelId}
        search={search}
        onSearch={(next) => void navigate({ search: next })}
      />
    );
  },
});

/** One page's dashboard, over the same days as the tab it came from. */
const pageAnalyticsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'funnels/$funnelId/analytics/pages/$pageId',
  validateSearch: RangeSearch,
  component: function PageAnalyticsRoute() {
    const { funnelId, pageId } = pageAnalyticsRoute.useParams();
    const search = pageAnalyticsRoute.useSearch();
    const navigate = pageAnalyticsRoute.useNavigate();
    return (
      <PageDashboard
        key={pageId}
        funnelId={funnelId}
        pageId={pageId}
        search={search}
        onSearch={(next) => void navigate({ search: next })}
      />
    );
  },
});

const FollowUpSearch = z.object({
  filter: z.enum(['pastButtonNotConverted', 'all']).optional().catch(undefined),
});

/** The leads worth a follow-up (`?filter=all` for everyone who played). */
const followUpsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'funnels/$funnelId/analytics/follow-ups',
  validateSearch: FollowUpSearch,
  component: function FollowUpsRoute() {
    const { funnelId } = followUpsRoute.useParams();
    const { filter } = followUpsRoute.useSearch();
    const navigate = followUpsRoute.useNavigate();
    return (
      <FollowUps
        key={funnelId}
        funnelId={funnelId}
        filter={filter ?? 'pastButtonNotConverted'}
        onFilter={(next) =>
          void navigate({
            search: { filter: next === 'pastButtonNotConverted' ? undefined : next },
            replace: true,
          })
        }
      />
    );
  },
});

/** One lead's visits (from the leads table or the follow-ups). */
const leadTimelineRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'funnels/$funnelId/analytics/leads/$leadId',
  component: function LeadTimelineRoute() {
    const { funnelId, leadId } = leadTimelineRoute.useParams();
    return <LeadTimeline key={leadId} funnelId={funnelId} leadId={leadId} />;
  },
});

export const analyticsRoutes = [
  analyticsRoute,
  pageAnalyticsRoute,
  followUpsRoute,
  leadTimelineRoute,
] as const;
