import { ROUTE_PATHS } from '@embudo/contracts/client';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api/api';
import { browserTimeZone } from '../i18n/time-zone';
import { resolveRange, todayIn, type DayRange, type RangeSearch } from './range';

/**
 * How often an open analytics screen asks again: an event shows within 5 s (the server counts it on
 * ingest). Polling stops while the tab is hidden (TanStack Query's default).
 */
export const LIVE_INTERVAL_MS = 3_000;

const live = {
  refetchInterval: LIVE_INTERVAL_MS,
  refetchIntervalInBackground: false,
  // A refetch keeps the numbers on screen; a new range keeps the old ones until its own arrive.
  placeholderData: keepPreviousData,
} as const;

export const analyticsKeys = {
  all: ['analytics'] as const,
  page: (pageId: string, range: DayRange) => ['analytics', 'page', pageId, range] as const,
  funnel: (funnelId: string, range: DayRange) => ['analytics', 'funnel', funnelId, range] as const,
  followUps: (funnelId: string, filter: string) => ['analytics', 'follow-ups', funnelId, filter] as const,
  timeline: (leadId: string) => ['analytics', 'timeline', leadId] as const,
};

export const pageAnalyticsQuery = (pageId: string, range: DayRange) =>
  queryOptions({
    queryKey: analyticsKeys.page(pageId, range),
    queryFn: () => api(ROUTE_PATHS.analytics.page, { params: { id: pageId }, query: range }),
    ...live,
  });

export const funnelAnalyticsQuery = (funnelId: string, range: DayRange) =>
  queryOptions({
    queryKey: analyticsKeys.funnel(funnelId, range),
    queryFn: () => api(ROUTE_PATHS.analytics.funnel, { params: { id: funnelId }, query: range }),
    ...live,
  });

export const timelineQuery = (leadId: string) =>
  queryOptions({
    queryKey: analyticsKeys.timeline(leadId),
    queryFn: () => api(ROUTE_PATHS.analytics.leadTimeline, { params: { id: leadId } }),
    refetchInterval: LIVE_INTERVAL_MS,
    refetchIntervalInBackground: false,
  });

/** A page's video length in seconds (from its analytics over the default days), for a timeline's bars. */
export const videoDurationQuery = (pageId: string) =>
  queryOptions({
    queryKey: ['analytics', 'page', pageId, 'duration'] as const,
    queryFn: () => api(ROUTE_PATHS.analytics.page, { params: { id: pageId }, query: {} }),
    staleTime: 5 * 60_000,
    select: (data) => data.videoDuration,
  });

export const leadQuery = (leadId: string) =>
  queryOptions({
    queryKey: ['leads', leadId] as const,
    queryFn: () => api(ROUTE_PATHS.leads.get, { params: { id: leadId } }),
  });

/** The account (its time zone: the days analytics counts by). The settings screen reads the same key. */
const accountQuery = queryOptions({
  queryKey: ['account'] as const,
  queryFn: () => api(ROUTE_PATHS.account.get, {}),
});

/**
 * The days the address asks for, counted in the account's time zone (the browser's if the account
 * cannot be read); undefined while the account loads.
 */
export function useDayRange(search: RangeSearch): DayRange | undefined {
  const account = useQuery(accountQuery);
  const zone =
    account.data?.settings.timeZone ?? (account.isError ? (browserTimeZone() ?? 'UTC') : undefined);
  if (zone === undefined) return undefined;
  return resolveRange(search, todayIn(zone));
}
