import { ROUTE_PATHS } from '@embudo/contracts/client';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api/api';

export { funnelKeys, funnelQuery, pagesQuery } from '../funnel-frame/funnel-query';
import { funnelKeys } from '../funnel-frame/funnel-query';

export const funnelsQuery = queryOptions({
  queryKey: funnelKeys.all,
  queryFn: () => api(ROUTE_PATHS.funnels.list, {}),
});

export const templatesQuery = queryOptions({
  queryKey: funnelKeys.templates,
  queryFn: () => api(ROUTE_PATHS.funnels.templates, {}),
  staleTime: 60 * 60_000,
});

export const pageQuery = (id: string) =>
  queryOptions({
    queryKey: funnelKeys.page(id),
    queryFn: () => api(ROUTE_PATHS.pages.get, { params: { id } }),
  });
