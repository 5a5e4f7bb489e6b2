import type { SiteResponse } from '@embudo/contracts';
import { FunnelPage } from '../funnel-page/FunnelPage';
import { NotFound } from '../not-found/NotFound';

export function App({ site }: { site: SiteResponse | null }) {
  if (site?.message === 'PAGE_FOUNDED' && site.data) return <FunnelPage data={site.data} />;
  return <NotFound />;
}
