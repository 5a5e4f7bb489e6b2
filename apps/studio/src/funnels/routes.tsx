import { createRoute } from '@tanstack/react-router';
import { useMessages } from '../i18n/i18n';
import { appRoute } from '../routing/routes';
import { EmptyState } from '../ui/states';
import { Card, PageHeader } from '../ui/surface';
import { funnelsMessages } from './messages';

/** A placeholder until the funnels screens are built (issue 18). */
function FunnelsScreen() {
  const t = useMessages(funnelsMessages);
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Card>
        <EmptyState title={t('emptyTitle')} text={t('emptyText')} />
      </Card>
    </>
  );
}

export const funnelsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'funnels',
  component: FunnelsScreen,
});

export const funnelsRoutes = [funnelsRoute] as const;
