import type { PageAnalytics } from '@embudo/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { FunnelHeader } from '../funnel-frame/FunnelHeader';
import { pagesQuery } from '../funnel-frame/funnel-query';
import { useMessages } from '../i18n/i18n';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { Card, Stack } from '../ui/surface';
import styles from './analytics.module.css';
import { headlineOf, useNumbers } from './format';
import { analyticsMessages } from './messages';
import { BackToAnalytics, Bar, HowCounted, RangeNote, SectionHeader, TableWrap } from './parts';
import { pageAnalyticsQuery, useDayRange } from './queries';
import { RangePicker } from './RangePicker';
import { clock, type RangeSearch } from './range';
import { RetentionChart } from './RetentionChart';

/** One page's numbers over a range of days: headline numbers, retention, conversions, days. */
export function PageDashboard({
  funnelId,
  pageId,
  search,
  onSearch,
}: {
  funnelId: string;
  pageId: string;
  search: RangeSearch;
  onSearch: (next: RangeSearch) => void;
}) {
  const t = useMessages(analyticsMessages);
  const range = useDayRange(search);
  const pages = useQuery(pagesQuery(funnelId));
  const analytics = useQuery({
    ...pageAnalyticsQuery(pageId, range ?? { from: '', to: '' }),
    enabled: range !== undefined,
  });
  const ordered = [...(pages.data ?? [])].sort((a, b) => a.position - b.position);
  const index = ordered.findIndex((page) => page.id === pageId);
  const headline = headlineOf(ordered[index]);
  const title = index >= 0 ? t('pageN', { n: index + 1 }) : t('page');
  return (
    <>
      <FunnelHeader funnelId={funnelId} description={t('description')} />
      <BackToAnalytics funnelId={funnelId} />
      <SectionHeader
        title={headline ? `${title} · ${headline}` : title}
        subtitle={<RangeNote range={range} timeZone={analytics.data?.timeZone} />}
      >
        <RangePicker search={search} range={range} onChange={onSearch} />
      </SectionHeader>
      {analytics.isPending ? (
        <Card>
          <LoadingState />
        </Card>
      ) : analytics.isError ? (
        <Card>
          <ErrorState error={analytics.error} onRetry={() => void analytics.refetch()} />
        </Card>
      ) : (
        // A new range keeps the last numbers on screen, dimmed, until its own arrive.
        <div
          className={analytics.isPlaceholderData ? styles.stale : undefined}
          aria-busy={analytics.isPlaceholderData || undefined}
        >
          <Dashboard data={analytics.data} funnelId={funnelId} />
        </div>
      )}
    </>
  );
}

function Dashboard({ data, funnelId }: { data: PageAnalytics; funnelId: string }) {
  const t = useMessages(analyticsMessages);
  const { count, share } = useNumbers();
  if (data.sessions === 0)
    return (
      <Stack>
        <Card>
          <EmptyState icon="∅" title={t('noVisits')} text={t('noVisitsText')} />
        </Card>
        <HowCounted />
      </Stack>
    );
  const stats: { key: string; label: string; value: string; detail?: string }[] = [
    { key: 'sessions', label: t('sessions'), value: count(data.sessions) },
    { key: 'plays', label: t('plays'), value: count(data.plays) },
    { key: 'playRate', label: t('playRate'), value: share(data.playRate) },
    { key: 'uniqueViewers', label: t('uniqueViewers'), value: count(data.uniqueViewers) },
    {
      key: 'averageWatched',
      label: t('averageWatched'),
      value: share(data.averageWatched),
      detail:
        data.averageWatched === null || data.videoDuration === 0
          ? undefined
          : t('ofVideo', {
              time: clock(data.averageWatched * data.videoDuration),
              length: clock(data.videoDuration),
            }),
    },
    {
      key: 'pastButton',
      label: t('pastButton'),
      value: count(data.pastButton),
      detail: t('buttonAt', { time: clock(data.buttonTimeSeconds) }),
    },
    { key: 'clicks', label: t('clicks'), value: count(data.clicks) },
    { key: 'clickRate', label: t('clickRate'), value: share(data.clickRate) },
    { key: 'conversions', label: t('conversions'), value: count(data.conversions) },
  ];
  return (
    <Stack>
      <dl className={styles.stats}>
        {stats.map((stat) => (
          <div key={stat.key} className={styles.stat} data-stat={stat.key}>
            <dt className={styles.statLabel}>{stat.label}</dt>
            <dd className={styles.statValue}>{stat.value}</dd>
            {stat.detail ? <dd className={styles.statDetail}>{stat.detail}</dd> : null}
          </div>
        ))}
      </dl>
      <Card title={t('retentionTitle')} description={t('retentionText')} labelledBy="retention-title">
        {data.videoDuration === 0 ? (
          <p className={styles.muted}>{t('noDuration')}</p>
        ) : data.plays === 0 ? (
          <p className={styles.muted}>{t('noPlays')}</p>
        ) : (
          <RetentionChart
            reach={data.retention.reach}
            views={data.retention.views}
            duration={data.videoDuration}
            buttonTime={data.buttonTimeSeconds}
          />
        )}
      </Card>
      <div className={styles.twoColumns}>
        <Card
          title={t('byFurthestTitle')}
          description={t('byFurthestText')}
          flush
          labelledBy="furthest-title"
        >
          <ConversionsByFurthest data={data} />
        </Card>
        <Card title={t('byDayTitle')} flush labelledBy="by-day-title">
          <TableWrap label={t('byDayTitle')}>
            <table className={[styles.table, styles.stackOnPhone].join(' ')}>
              <caption className="visually-hidden">{t('byDayTitle')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('day')}</th>
                  <th scope="col" className={styles.numeric}>
                    {t('sessions')}
                  </th>
                  <th scope="col" className={styles.numeric}>
                    {t('plays')}
                  </th>
                  <th scope="col" className={styles.numeric}>
                    {t('clicks')}
                  </th>
                  <th scope="col" className={styles.numeric}>
                    {t('conversions')}
                  </th>
                </tr>
              </thead>
              <tbody>
                <DayRows days={data.byDay} />
              </tbody>
            </table>
          </TableWrap>
        </Card>
      </div>
      <HowCounted />
      <p className={styles.muted}>
        <Link to="/funnels/$funnelId/analytics/follow-ups" params={{ funnelId }}>
          {t('seeFollowUps')}
        </Link>
      </p>
    </Stack>
  );
}

function DayRows({ days }: { days: PageAnalytics['byDay'] }) {
  const t = useMessages(analyticsMessages);
  const { count, day } = useNumbers();
  // Newest first; days without a session are left out.
  const shown = days.filter((d) => d.sessions + d.plays + d.clicks + d.conversions > 0).reverse();
  return (
    <>
      {shown.map((d) => (
        <tr key={d.date}>
          <th scope="row">{day(d.date, false)}</th>
          <td className={styles.numeric} data-label={t('sessions')}>
            {count(d.sessions)}
          </td>
          <td className={styles.numeric} data-label={t('plays')}>
            {count(d.plays)}
          </td>
          <td className={styles.numeric} data-label={t('clicks')}>
            {count(d.clicks)}
          </td>
          <td className={styles.numeric} data-label={t('conversions')}>
            {count(d.conversions)}
          </td>
        </tr>
      ))}
    </>
  );
}

function ConversionsByFurthest({ data }: { data: PageAnalytics }) {
  const t = useMessages(analyticsMessages);
  const { count, share } = useNumbers();
  const rows = data.conversionsByFurthest.filter((row) => row.leads > 0);
  if (rows.length === 0) return <p className={[styles.muted, styles.padded].join(' ')}>{t('noPlays')}</p>;
  const most = Math.max(...rows.map((row) => row.leads));
  return (
    <TableWrap label={t('byFurthestTitle')}>
      <table className={[styles.table, styles.stackOnPhone].join(' ')}>
        <caption className="visually-hidden">{t('byFurthestTitle')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('furthestPoint')}</th>
            <th scope="col" className={styles.numeric}>
              {t('leads')}
            </th>
            <th scope="col" className={styles.numeric}>
              {t('converted')}
            </th>
            <th scope="col" className={styles.numeric}>
              {t('rate')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.fromSecond}>
              <th scope="row">
                {clock(row.fromSecond)}–{clock(row.toSecond)}
                <Bar value={row.leads} max={most} tone="muted" />
              </th>
              <td className={styles.numeric} data-label={t('leads')}>
                {count(row.leads)}
              </td>
              <td className={styles.numeric} data-label={t('converted')}>
                {count(row.converted)}
              </td>
              <td className={styles.numeric} data-label={t('rate')}>
                {share(row.leads > 0 ? row.converted / row.leads : null)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
