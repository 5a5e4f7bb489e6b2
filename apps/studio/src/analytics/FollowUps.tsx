import type { FollowUp, FollowUpQuery } from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../api/api';
import { FunnelHeader } from '../funnel-frame/FunnelHeader';
import { pagesQuery } from '../funnel-frame/funnel-query';
import { useMessages } from '../i18n/i18n';
import { Button } from '../ui/Button';
import { downloadText } from '../ui/download';
import { FormAlert } from '../ui/form';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { Card, Stack } from '../ui/surface';
import styles from './analytics.module.css';
import { followUpsCsv } from './csv';
import { headlineOf, useNumbers } from './format';
import { analyticsMessages } from './messages';
import { BackToAnalytics, Bar, SectionHeader, TableWrap } from './parts';
import { analyticsKeys, LIVE_INTERVAL_MS } from './queries';
import { clock } from './range';

export type FollowUpFilter = FollowUpQuery['filter'];

const PAGE_SIZE = 50;
const EXPORT_PAGE_SIZE = 200;

/** Every row of the list, page after page (for the CSV). */
async function allFollowUps(funnelId: string, filter: FollowUpFilter): Promise<FollowUp[]> {
  const rows: FollowUp[] = [];
  let cursor: string | undefined;
  do {
    const page = await api(ROUTE_PATHS.analytics.followUps, {
      params: { id: funnelId },
      query: { filter, limit: EXPORT_PAGE_SIZE, ...(cursor ? { cursor } : {}) },
    });
    rows.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return rows;
}

/**
 * The leads worth a follow-up: by default those who watched past a page's button and did not convert
 * on it, furthest first; or everyone who played. Exported whole as a CSV.
 */
export function FollowUps({
  funnelId,
  filter,
  onFilter,
}: {
  funnelId: string;
  filter: FollowUpFilter;
  onFilter: (filter: FollowUpFilter) => void;
}) {
  const t = useMessages(analyticsMessages);
  const [exporting, setExporting] = useState(false);
  const [exportFailure, setExportFailure] = useState<unknown>(null);
  const list = useInfiniteQuery({
    queryKey: analyticsKeys.followUps(funnelId, filter),
    queryFn: ({ pageParam }) =>
      api(ROUTE_PATHS.analytics.followUps, {
        params: { id: funnelId },
        query: { filter, limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) },
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: LIVE_INTERVAL_MS,
    refetchIntervalInBackground: false,
  });
  const rows = list.data?.pages.flatMap((page) => page.items) ?? [];
  const exportCsv = async () => {
    setExporting(true);
    setExportFailure(null);
    try {
      const everything = await allFollowUps(funnelId, filter);
      downloadText(`follow-ups-${new Date().toISOString().slice(0, 10)}.csv`, followUpsCsv(everything));
    } catch (error) {
      setExportFailure(error);
    } finally {
      setExporting(false);
    }
  };
  const filters: { value: FollowUpFilter; label: string }[] = [
    { value: 'pastButtonNotConverted', label: t('filterPastButton') },
    { value: 'all', label: t('filterAll') },
  ];
  return (
    <>
      <FunnelHeader funnelId={funnelId} description={t('description')} />
      <BackToAnalytics funnelId={funnelId} />
      <SectionHeader
        title={t('followUps')}
        subtitle={filter === 'all' ? t('followUpsAllText') : t('followUpsText')}
      >
        <div className={styles.segmented} role="group" aria-label={t('filterLabel')}>
          {filters.map((option) => (
            <button
              key={option.value}
              type="button"
              className={styles.segment}
              aria-pressed={filter === option.value}
              onClick={() => {
                onFilter(option.value);
              }}
            >
              {option.label}
            </button>
          ))}
        </div>
        <Button busy={exporting} disabled={rows.length === 0} onClick={() => void exportCsv()}>
          {t('exportCsv')}
        </Button>
      </SectionHeader>
      <Stack>
        <FormAlert error={exportFailure} />
        <Card flush>
          {list.isPending ? (
            <LoadingState />
          ) : list.isError ? (
            <div className={styles.padded}>
              <ErrorState error={list.error} onRetry={() => void list.refetch()} />
            </div>
          ) : rows.length === 0 ? (
            <EmptyState
              icon="✓"
              title={filter === 'all' ? t('noPlaysYet') : t('noFollowUps')}
              text={filter === 'all' ? t('noPlaysYetText') : t('noFollowUpsText')}
            />
          ) : (
            <FollowUpTable funnelId={funnelId} rows={rows} />
          )}
          {list.hasNextPage ? (
            <div className={styles.pager}>
              <Button size="small" busy={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                {t('loadMore')}
              </Button>
            </div>
          ) : null}
        </Card>
      </Stack>
    </>
  );
}

function FollowUpTable({ funnelId, rows }: { funnelId: string; rows: FollowUp[] }) {
  const t = useMessages(analyticsMessages);
  const { count, share, day } = useNumbers();
  const pages = useQuery(pagesQuery(funnelId));
  const headline = new Map((pages.data ?? []).map((page) => [page.id, headlineOf(page)]));
  return (
    <TableWrap label={t('followUps')}>
      <table className={[styles.table, styles.stackOnPhone].join(' ')}>
        <caption className="visually-hidden">{t('followUps')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('lead')}</th>
            <th scope="col">{t('page')}</th>
            <th scope="col">{t('reachedCol')}</th>
            <th scope="col" className={styles.numeric}>
              {t('watchedCol')}
            </th>
            <th scope="col">{t('statusCol')}</th>
            <th scope="col">{t('lastPlayed')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.lead.id}-${row.pageId}`}>
              <th scope="row" data-label={t('lead')}>
                <Link
                  to="/funnels/$funnelId/analytics/leads/$leadId"
                  params={{ funnelId, leadId: row.lead.id }}
                  className={styles.leadLink}
                >
                  {row.lead.name}
                </Link>
                <span className={styles.contact}>{row.lead.email ?? row.lead.phone ?? ''}</span>
              </th>
              <td data-label={t('page')}>
                <span title={headline.get(row.pageId) ?? undefined}>
                  {t('pageN', { n: row.position + 1 })}
                </span>
              </td>
              <td data-label={t('reachedCol')}>
                <span className={styles.reachedCell}>
                  <Bar value={row.reachedShare ?? 0} max={1} />
                  <span>
                    {share(row.reachedShare)} · {clock(row.furthestSecond)}
                  </span>
                </span>
              </td>
              <td data-label={t('watchedCol')} className={styles.numeric}>
                {t('secondsShort', { n: count(row.secondsPlayed) })}
              </td>
              <td data-label={t('statusCol')}>
                <span className={styles.badges}>
                  {row.pastButton ? <span className={styles.badge}>{t('pastButtonBadge')}</span> : null}
                  {row.converted ? (
                    <span className={[styles.badge, styles.badgeSuccess].join(' ')}>
                      {t('convertedBadge')}
                    </span>
                  ) : (
                    <span className={[styles.badge, styles.badgeMuted].join(' ')}>{t('notConverted')}</span>
                  )}
                </span>
              </td>
              <td data-label={t('lastPlayed')}>{day(row.lastPlayedOn)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
