import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { appRoute } from '../routing/routes';
import { lazy, Suspense, type ReactNode } from 'react';
import { LoadingState } from '../ui/states';
import { RangeSearch } from './range';

// The screens (and uPlot after them) load when first opened: the Studio's first load stays as it was.
const FunnelOverview = lazy(() => import('./FunnelOverview').then((m) => ({ default: m.FunnelOverview })));
const PageDashboard = lazy(() => import('./PageDashboard').then((m) => ({ default: m.PageDashboard })));
const FollowUps = lazy(() => import('./FollowUps').then((m) => ({ default: m.FollowUps })));
const LeadTimeline = lazy(() => import('./LeadTimeline').then((m) => ({ default: m.LeadTimeline })));

const Loading = ({ children }: { children: ReactNode }) => (
  <Suspense fallback={<LoadingState />}>{children}</Suspense>
);

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
      <Loading>
        <FunnelOverview
          key={funnelId}
          funnelId={funnelId}
          search={search}
          onSearch={(next) => void navigate({ search: next })}
        />
      </Loading>
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
      <Loading>
        <PageDashboard
          key={pageId}
          funnelId={funnelId}
          pageId={pageId}
          search={search}
          onSearch={(next) => void navigate({ search: next })}
        />
      </Loading>
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
      <Loading>
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
      </Loading>
    );
  },
});

/** One lead's visits (from the leads table or the follow-ups). */
const leadTimelineRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'funnels/$funnelId/analytics/leads/$leadId',
  component: function LeadTimelineRoute() {
    const { funnelId, leadId } = leadTimelineRoute.useParams();
    return (
      <Loading>
        <LeadTimeline key={leadId} funnelId={funnelId} leadId={leadId} />
      </Loading>
    );
  },
});

export const analyticsRoutes = [
  analyticsRoute,
  pageAnalyticsRoute,
  followUpsRoute,
  leadTimelineRoute,
] as const;
