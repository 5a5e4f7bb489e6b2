import type { FunnelPageData } from '@embudo/contracts';
import { useT } from '../i18n/I18nProvider';

/** The expired-benefit screen (visitor-behaviour §2.2 step 5): the owner's texts, or the standard ones. */
export function Expired({ page }: { page: FunnelPageData['expiredPage'] }) {
  const t = useT();
  const background = page?.bgImageUrl
    ? { backgroundImage: `url(${JSON.stringify(page.bgImageUrl)})` }
    : undefined;
  return (
    <main className="screen screen-center expired" style={background}>
      <h1>{page?.title || t('expired.title')}</h1>
      <h2>{page?.subtitle || t('expired.subtitle')}</h2>
      <p>{page?.description || t('expired.description')}</p>
      {page?.highlight ? <p className="highlight">{page.highlight}</p> : null}
    </main>
  );
}
