import type { FunnelAnalytics, Page } from '@embudo/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { FunnelHeader } from '../funnel-frame/FunnelHeader';
import { pagesQuery } from '../funnel-frame/funnel-query';
import { useMessages } from '../i18n/i18n';
import { buttonClass } from '../ui/Button';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { Card, Stack } from '../ui/surface';
import styles from './analytics.module.css';
import { headlineOf, useNumbers } from './format';
import { analyticsMessages } from './messages';
import { Bar, HowCounted, RangeNote, SectionHeader, TableWrap } from './parts';
import { funnelAnalyticsQuery, useDayRange } from './queries';
import { RangePicker } from './RangePicker';
import type { RangeSearch } from './range';

/** The funnel's analytics tab: its steps page by page, its days, and the way to each page and the follow-ups. */
export function FunnelOverview({
  funnelId,
  search,
  onSearch,
}: {
  funnelId: string;
  search: RangeSearch;
  onSearch: (next: RangeSearch) => void;
}) {
  const t = useMessages(analyticsMessages);
  const range = useDayRange(search);
  const pages = useQuery(pagesQuery(funnelId));
  const analytics = useQuery({
    ...funnelAnalyticsQuery(funnelId, range ?? { from: '', to: '' }),
    enabled: range !== undefined,
  });
  return (
    <>
      <FunnelHeader
        funnelId={funnelId}
        description={t('description')}
        actions={
          <Link
            to="/funnels/$funnelId/analytics/follow-ups"
            params={{ funnelId }}
            className={buttonClass('secondary')}
          >
            {t('followUps')}
          </Link>
        }
      />
      <SectionHeader
        title={t('stepsTitle')}
        subtitle={<RangeNote range={range} timeZone={analytics.data?.timeZone} />}
      >
        <RangePicker search={search} range={range} onChange={onSearch} />
      </SectionHeader>
      {analytics.isPending || pages.isPending ? (
        <Card>
          <LoadingState />
        </Card>
      ) : analytics.isError || pages.isError ? (
        <Card>
          <ErrorState
            error={analytics.error ?? pages.error}
            onRetry={() => {
              void analytics.refetch();
              void pages.refetch();
            }}
          />
        </Card>
      ) : (
        <div
          className={analytics.isPlaceholderData ? styles.stale : undefined}
          aria-busy={analytics.isPlaceholderData || undefined}
        >
          <Overview funnelId={funnelId} data={analytics.data} pages={pages.data} search={search} />
        </div>
      )}
    </>
  );
}

function Overview({
  funnelId,
  data,
  pages,
  search,
}: {
  funnelId: string;
  data: FunnelAnalytics;
  pages: Page[];
  search: RangeSearch;
}) {
  const t = useMessages(analyticsMessages);
  const { count, day } = useNumbers();
  const byId = new Map(pages.map((page) => [page.id, page]));
  const steps = [...data.steps].sort((a, b) => a.position - b.position);
  const entered = data.byDay.reduce((sum, d) => sum + d.entered, 0);
  if (steps.length === 0)
    return (
      <Card>
        <EmptyState title={t('noPages')} text={t('noPagesText')} />
      </Card>
    );
  const most = Math.max(1, ...steps.map((step) => step.reached));
  const days = data.byDay
    .filter((d) => d.entered + d.sessions + d.plays + d.clicks + d.conversions > 0)
    .reverse();
  return (
    <Stack>
      {entered === 0 && steps.every((step) => step.reached === 0) ? (
        <Card>
          <EmptyState icon="∅" title={t('noLeadsEntered')} text={t('noVisitsText')} />
        </Card>
      ) : (
        <Card
          title={t('stepsCard')}
          description={t('stepsText', { count: count(entered) })}
          labelledBy="steps-title"
        >
          <ol className={styles.steps}>
            {steps.map((step, index) => {
              const headline = headlineOf(byId.get(step.pageId));
              const rows = [
                { key: 'reached', label: t('reached'), value: step.reached, tone: 'accent' as const },
                { key: 'completed', label: t('completed'), value: step.completed, tone: 'accent' as const },
                { key: 'clicked', label: t('clicked'), value: step.clicked, tone: 'muted' as const },
                { key: 'converted', label: t('converted'), value: step.converted, tone: 'success' as const },
              ];
              return (
                <li key={step.pageId} className={styles.step} data-page={step.pageId}>
                  <p className={styles.stepTitle}>
                    <span className={styles.stepNumber}>{t('pageN', { n: index + 1 })}</span>
                    {headline ? <span className={styles.stepHeadline}>{headline}</span> : null}
                  </p>
                  <dl className={styles.stepBars}>
                    {rows.map((row) => (
                      <div key={row.key} className={styles.stepRow} data-step={row.key}>
                        <dt>{row.label}</dt>
                        <dd>
                          <Bar value={row.value} max={most} tone={row.tone} />
                          <span className={styles.stepValue}>{count(row.value)}</span>
                        </dd>
                      </div>
                    ))}
                  </dl>
                </li>
              );
            })}
          </ol>
        </Card>
      )}
      <div className={styles.twoColumns}>
        <Card title={t('pagesTitle')} description={t('pagesText')} flush labelledBy="pages-title">
          <ul className={styles.pageList}>
            {steps.map((step, index) => {
              const headline = headlineOf(byId.get(step.pageId));
              return (
                <li key={step.pageId}>
                  <Link
                    to="/funnels/$funnelId/analytics/pages/$pageId"
                    params={{ funnelId, pageId: step.pageId }}
                    search={search}
                    className={styles.pageLink}
                  >
                    <span className={styles.stepNumber}>{t('pageN', { n: index + 1 })}</span>
                    <span className={styles.pageLinkText}>{headline ?? t('noHeadline')}</span>
                    <span aria-hidden="true">→</span>
                  </Link>
                </li>
              );
            })}
            <li>
              <Link
                to="/funnels/$funnelId/analytics/follow-ups"
                params={{ funnelId }}
                className={styles.pageLink}
              >
                <span className={styles.pageLinkText}>{t('followUpsLink')}</span>
                <span aria-hidden="true">→</span>
              </Link>
            </li>
          </ul>
        </Card>
        <Card title={t('byDayTitle')} flush labelledBy="funnel-days-title">
          {days.length === 0 ? (
            <p className={[styles.muted, styles.padded].join(' ')}>{t('noVisits')}</p>
          ) : (
            <TableWrap label={t('byDayTitle')}>
              <table className={[styles.table, styles.stackOnPhone].join(' ')}>
                <caption className="visually-hidden">{t('byDayTitle')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('day')}</th>
                    <th scope="col" className={styles.numeric}>
                      {t('entered')}
                    </th>
                    <th scope="col" className={styles.numeric}>
                      {t('sessions')}
                    </th>
                    <th scope="col" className={styles.numeric}>
                      {t('conversions')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {days.map((d) => (
                    <tr key={d.date}>
                      <th scope="row">{day(d.date, false)}</th>
                      <td className={styles.numeric} data-label={t('entered')}>
                        {count(d.entered)}
                      </td>
                      <td className={styles.numeric} data-label={t('sessions')}>
                        {count(d.sessions)}
                      </td>
                      <td className={styles.numeric} data-label={t('conversions')}>
                        {count(d.conversions)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
        </Card>
      </div>
      <HowCounted funnel />
    </Stack>
  );
}
