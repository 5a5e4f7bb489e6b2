import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useMessages } from '../i18n/i18n';
import { useCan } from '../session/session';
import { formStyles } from '../ui/form';
import { PageHeader } from '../ui/surface';
import styles from './funnel-frame.module.css';
import { funnelQuery } from './funnel-query';
import { funnelFrameMessages } from './messages';

/** The top of every screen of one funnel: back to the list, its name, its sections as tabs. */
export function FunnelHeader({
  funnelId,
  description,
  actions,
}: {
  funnelId: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  const t = useMessages(funnelFrameMessages);
  const funnel = useQuery(funnelQuery(funnelId));
  const canEdit = useCan('editor');
  const active = { 'aria-current': 'page' as const };
  const params = { funnelId };
  return (
    <>
      <Link to="/funnels" className={styles.back}>
        <span aria-hidden="true">←</span> {t('back')}
      </Link>
      <PageHeader title={funnel.data?.name ?? '…'} description={description} actions={actions} />
      <nav aria-label={t('funnelSections')} className={styles.tabs}>
        <Link to="/funnels/$funnelId/pages" params={params} className={styles.tab} activeProps={active}>
          {t('pages')}
        </Link>
        <Link to="/funnels/$funnelId/leads" params={params} className={styles.tab} activeProps={active}>
          {t('leads')}
        </Link>
        <Link to="/funnels/$funnelId/analytics" params={params} className={styles.tab} activeProps={active}>
          {t('analytics')}
        </Link>
        <Link to="/funnels/$funnelId/settings" params={params} className={styles.tab} activeProps={active}>
          {t('settings')}
        </Link>
      </nav>
      {canEdit ? null : <p className={[formStyles.notice, styles.gapBelow].join(' ')}>{t('readOnly')}</p>}
    </>
  );
}
