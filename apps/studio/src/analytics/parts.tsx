import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useMessages } from '../i18n/i18n';
import { analyticsMessages } from './messages';
import styles from './analytics.module.css';
import { useNumbers } from './format';
import type { DayRange } from './range';

/** Back to the funnel's analytics, from one of its pages, a lead or the follow-ups. */
export function BackToAnalytics({ funnelId }: { funnelId: string }) {
  const t = useMessages(analyticsMessages);
  return (
    <Link to="/funnels/$funnelId/analytics" params={{ funnelId }} className={styles.back}>
      <span aria-hidden="true">←</span> {t('backToAnalytics')}
    </Link>
  );
}

/** A section's title, what it shows, and its controls. */
export function SectionHeader({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className={styles.sectionHeader}>
      <div className={styles.sectionTitles}>
        <h2 className={styles.sectionTitle}>{title}</h2>
        {subtitle ? <p className={styles.sectionSubtitle}>{subtitle}</p> : null}
      </div>
      {children ? <div className={styles.sectionControls}>{children}</div> : null}
    </div>
  );
}

/** "3 Nov – 2 Dec 2026 · America/Bogota", and that the numbers follow events as they come. */
export function RangeNote({ range, timeZone }: { range: DayRange | undefined; timeZone?: string }) {
  const t = useMessages(analyticsMessages);
  const { day } = useNumbers();
  if (!range) return null;
  const days = range.from === range.to ? day(range.from) : `${day(range.from)} – ${day(range.to)}`;
  return (
    <p className={styles.rangeNote}>
      <span>{timeZone ? `${days} · ${timeZone.replaceAll('_', ' ')}` : days}</span>
      <span className={styles.live}>
        <span className={styles.liveDot} aria-hidden="true" />
        {t('live')}
      </span>
    </p>
  );
}

/** The definitions of every number (issue 19), folded away under "How these numbers are counted". */
export function HowCounted({ funnel = false }: { funnel?: boolean }) {
  const t = useMessages(analyticsMessages);
  const terms = funnel
    ? (['defSteps', 'defEntered', 'defReached', 'defCompleted', 'defClicked', 'defConverted'] as const)
    : ([
        'defSessions',
        'defPlays',
        'defPlayRate',
        'defUniqueViewers',
        'defAverageWatched',
        'defPastButton',
        'defClicks',
        'defClickRate',
        'defConversions',
        'defReach',
        'defViews',
        'defPlayed',
      ] as const);
  return (
    <details className={styles.help}>
      <summary>{t('howCounted')}</summary>
      <dl className={styles.definitions}>
        {terms.map((term) => {
          const [name, ...rest] = t(term).split(': ');
          return (
            <div key={term} className={styles.definition}>
              <dt>{name}</dt>
              <dd>{rest.join(': ')}</dd>
            </div>
          );
        })}
      </dl>
      <p className={styles.definitionNote}>{t('defDays')}</p>
    </details>
  );
}

/** A horizontal bar: a value against the largest of its chart (a share of the track). */
export function Bar({
  value,
  max,
  tone = 'accent',
}: {
  value: number;
  max: number;
  tone?: 'accent' | 'success' | 'muted';
}) {
  const share = max > 0 ? Math.min(1, value / max) : 0;
  return (
    <span className={styles.barTrack} aria-hidden="true">
      <span className={[styles.barFill, styles[tone]].join(' ')} style={{ inlineSize: `${share * 100}%` }} />
    </span>
  );
}

/** A table that scrolls sideways when the screen is narrower than it: reachable by keyboard, named. */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.tableWrap} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
