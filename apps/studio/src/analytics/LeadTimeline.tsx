import type { LeadTimeline as Timeline } from '@embudo/contracts';
import { useQueries, useQuery } from '@tanstack/react-query';
import { FunnelHeader } from '../funnel-frame/FunnelHeader';
import { pagesQuery } from '../funnel-frame/funnel-query';
import { useLanguage, useMessages } from '../i18n/i18n';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { Card, Stack } from '../ui/surface';
import styles from './analytics.module.css';
import { headlineOf, useNumbers } from './format';
import { analyticsMessages } from './messages';
import { BackToAnalytics, SectionHeader } from './parts';
import { leadQuery, timelineQuery, videoDurationQuery } from './queries';
import { clock } from './range';

type Session = Timeline['sessions'][number];

/** One lead's visits, newest first: when, why they began and ended, what of the video they played, what they did. */
export function LeadTimeline({ funnelId, leadId }: { funnelId: string; leadId: string }) {
  const t = useMessages(analyticsMessages);
  const lead = useQuery(leadQuery(leadId));
  const timeline = useQuery(timelineQuery(leadId));
  const contact = lead.data ? [lead.data.email, lead.data.phone].filter(Boolean).join(' · ') : '';
  return (
    <>
      <FunnelHeader funnelId={funnelId} description={t('description')} />
      <BackToAnalytics funnelId={funnelId} />
      <SectionHeader
        title={lead.data ? t('timelineOf', { name: lead.data.name }) : t('timeline')}
        subtitle={contact || undefined}
      />
      {timeline.isPending ? (
        <Card>
          <LoadingState />
        </Card>
      ) : timeline.isError ? (
        <Card>
          <ErrorState error={timeline.error} onRetry={() => void timeline.refetch()} />
        </Card>
      ) : timeline.data.sessions.length === 0 ? (
        <Card>
          <EmptyState icon="∅" title={t('noSessions')} text={t('noSessionsText')} />
        </Card>
      ) : (
        <Sessions funnelId={funnelId} sessions={timeline.data.sessions} />
      )}
    </>
  );
}

function Sessions({ funnelId, sessions }: { funnelId: string; sessions: Session[] }) {
  const pages = useQuery(pagesQuery(funnelId));
  const ordered = [...(pages.data ?? [])].sort((a, b) => a.position - b.position);
  const pageIds = [...new Set(sessions.map((session) => session.pageId))];
  // Each page's video length (from its analytics: the last 30 days by default), for the bar's scale.
  const durations = useQueries({ queries: pageIds.map((pageId) => videoDurationQuery(pageId)) });
  const durationOf = new Map(pageIds.map((pageId, i) => [pageId, durations[i]?.data]));
  const sorted = [...sessions].sort((a, b) => b.startAt.localeCompare(a.startAt));
  return (
    <Stack>
      <ol className={styles.sessions}>
        {sorted.map((session) => {
          const index = ordered.findIndex((page) => page.id === session.pageId);
          return (
            <li key={session.id}>
              <SessionCard
                session={session}
                pageNumber={index >= 0 ? index + 1 : null}
                headline={headlineOf(ordered[index])}
                duration={durationOf.get(session.pageId)}
                pageNumberOf={(pageId) => {
                  const at = ordered.findIndex((page) => page.id === pageId);
                  return at >= 0 ? at + 1 : null;
                }}
              />
            </li>
          );
        })}
      </ol>
    </Stack>
  );
}

function SessionCard({
  session,
  pageNumber,
  headline,
  duration,
  pageNumberOf,
}: {
  session: Session;
  pageNumber: number | null;
  headline: string | null;
  duration: number | undefined;
  pageNumberOf: (pageId: string) => number | null;
}) {
  const t = useMessages(analyticsMessages);
  const { language } = useLanguage();
  const { count } = useNumbers();
  const when = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const time = new Intl.DateTimeFormat(language, { timeStyle: 'short' });
  const start = new Date(session.startAt);
  const end = session.endAt ? new Date(session.endAt) : null;
  const sameDay = end !== null && end.toDateString() === start.toDateString();
  const minutes = end ? Math.max(0, Math.round((end.getTime() - start.getTime()) / 60_000)) : null;
  const played = session.passes.flatMap((pass) => pass.played);
  const seconds = distinctSeconds(played);
  const furthest = played.reduce((most, interval) => Math.max(most, interval.to), 0);
  const length = Math.max(duration ?? 0, furthest, 1);
  const page = pageNumber ? t('pageN', { n: pageNumber }) : t('page');
  // Actions and conversions in the order they happened.
  const events = [
    ...session.actions.map((action, i) => ({ type: 'action' as const, key: `a-${i}`, ...action })),
    ...session.conversions.map((conversion) => ({
      type: 'conversion' as const,
      key: conversion.id,
      ...conversion,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  const otherPage = (pageId: string) => {
    const n = pageNumberOf(pageId);
    return n === null ? t('page') : t('pageN', { n });
  };
  // Reasons, actions and conversion kinds in words; one this screen does not know yet as sent.
  const label = (code: string) => {
    const key = `code_${code}`;
    return isCode(key) ? t(key) : code;
  };
  return (
    <article className={styles.session} aria-labelledby={`session-${session.id}`}>
      <header className={styles.sessionHeader}>
        <h3 id={`session-${session.id}`} className={styles.sessionTitle}>
          {headline ? `${page} · ${headline}` : page}
        </h3>
        <p className={styles.sessionWhen}>
          <time dateTime={session.startAt}>{when.format(start)}</time>
          {' – '}
          {end ? (
            <time dateTime={session.endAt ?? undefined}>{sameDay ? time.format(end) : when.format(end)}</time>
          ) : (
            t('stillOpen')
          )}
          {minutes !== null ? ` (${t('minutes', { n: minutes })})` : null}
        </p>
      </header>
      <dl className={styles.sessionFacts}>
        <div>
          <dt>{t('startReason')}</dt>
          <dd>{label(session.startReason)}</dd>
        </div>
        <div>
          <dt>{t('endReason')}</dt>
          <dd>{session.endReason ? label(session.endReason) : '—'}</dd>
        </div>
        <div>
          <dt>{t('device')}</dt>
          <dd>{session.device ?? t('unknown')}</dd>
        </div>
        <div>
          <dt>{t('watchedCol')}</dt>
          <dd>
            {played.length === 0
              ? t('noPlay')
              : t('watchedSummary', { n: count(seconds), furthest: clock(Math.max(furthest - 1, 0)) })}
          </dd>
        </div>
      </dl>
      {played.length > 0 ? (
        <div className={styles.passes}>
          {session.passes.map((pass, i) =>
            pass.played.length === 0 ? null : (
              <div key={i} className={styles.pass}>
                {session.passes.length > 1 ? (
                  <span className={styles.passLabel}>{t('passN', { n: i + 1 })}</span>
                ) : null}
                <div
                  className={styles.watchTrack}
                  role="img"
                  aria-label={t('watchedIntervals', {
                    intervals: pass.played.map((p) => `${clock(p.from)}–${clock(p.to)}`).join(', '),
                    length: clock(length),
                  })}
                  data-intervals={pass.played.map((p) => `${p.from}-${p.to}`).join(',')}
                >
                  {pass.played.map((interval) => (
                    <span
                      key={`${interval.from}-${interval.to}`}
                      className={styles.watchSegment}
                      style={{
                        insetInlineStart: `${(interval.from / length) * 100}%`,
                        inlineSize: `${(Math.max(interval.to - interval.from, 0.5) / length) * 100}%`,
                      }}
                    />
                  ))}
                </div>
                <span className={styles.trackScale} aria-hidden="true">
                  <span>0:00</span>
                  <span>{clock(length)}</span>
                </span>
              </div>
            ),
          )}
        </div>
      ) : null}
      {events.length > 0 ? (
        <ul className={styles.events}>
          {events.map((event) =>
            event.type === 'action' ? (
              <li key={event.key}>
                <time dateTime={event.at}>{time.format(new Date(event.at))}</time>
                <span>{label(event.action)}</span>
              </li>
            ) : event.kind === 'VIDEO_VIEWED' ? (
              // Stored as a conversion, but it marks the page complete: analytics does not count it.
              <li key={event.key}>
                <time dateTime={event.at}>{time.format(new Date(event.at))}</time>
                <span>
                  {label(event.kind)}
                  {event.pageId !== null && event.pageId !== session.pageId
                    ? ` · ${otherPage(event.pageId)}`
                    : null}
                </span>
              </li>
            ) : (
              <li key={event.key}>
                <time dateTime={event.at}>{time.format(new Date(event.at))}</time>
                <span className={[styles.badge, styles.badgeSuccess].join(' ')}>
                  {t('conversion', { kind: label(event.kind) })}
                </span>
                {event.pixel ? (
                  <span
                    className={[
                      styles.badge,
                      event.pixel === 'failed' ? styles.badgeDanger : styles.badgeMuted,
                    ].join(' ')}
                  >
                    {t(
                      event.pixel === 'sent'
                        ? 'pixelSent'
                        : event.pixel === 'failed'
                          ? 'pixelFailed'
                          : 'pixelPending',
                    )}
                  </span>
                ) : null}
              </li>
            ),
          )}
        </ul>
      ) : null}
    </article>
  );
}

const CODES = [
  'code_INITIAL_LOAD',
  'code_AFTER_INACTIVITY',
  'code_PAGE_CLOSE',
  'code_INACTIVITY',
  'code_PAGE_CHANGE',
  'code_VIDEO_ENDED',
  'code_VIDEO_ENDED_OFFERT',
  'code_BUTTON_CLICK',
  'code_OFFERT',
  'code_VIDEO_VIEWED',
  'code_PRELAUNCH',
  'code_PIXEL_LEAD',
] as const;
const isCode = (key: string): key is (typeof CODES)[number] => (CODES as readonly string[]).includes(key);

/** Distinct seconds the intervals cover (a second counts when any interval covers part of it). */
function distinctSeconds(intervals: readonly { from: number; to: number }[]): number {
  const seconds = new Set<number>();
  for (const { from, to } of intervals)
    for (let s = Math.floor(from); s < Math.max(to, from + 1); s += 1) seconds.add(s);
  return seconds.size;
}
