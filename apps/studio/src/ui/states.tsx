import type { ReactNode } from 'react';
import { useMessages } from '../i18n/i18n';
import { Button } from './Button';
import { useFailureMessage } from './failure';
import { uiMessages } from './messages';
import styles from './states.module.css';

export function EmptyState({
  icon = '+',
  title,
  text,
  action,
}: {
  icon?: string;
  title: string;
  text?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className={styles.empty}>
      <span className={styles.emptyIcon} aria-hidden="true">
        {icon}
      </span>
      <p className={styles.emptyTitle}>{title}</p>
      {text ? <p className={styles.emptyText}>{text}</p> : null}
      {action ? <div className={styles.emptyAction}>{action}</div> : null}
    </div>
  );
}

/** Placeholder lines while data loads; announced once to screen readers. */
export function LoadingState({ label }: { label?: string }) {
  const t = useMessages(uiMessages);
  return (
    <div className={styles.loading} role="status" aria-live="polite">
      <span className="visually-hidden">{label ?? t('loading')}</span>
      <span className={styles.bar} />
      <span className={styles.bar} />
      <span className={styles.bar} />
    </div>
  );
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const t = useMessages(uiMessages);
  const message = useFailureMessage();
  return (
    <div className={styles.error} role="alert">
      <div>
        <p className={styles.errorTitle}>{t('loadFailed')}</p>
        <p>{message(error)}</p>
      </div>
      {onRetry ? (
        <Button size="small" onClick={onRetry}>
          {t('retry')}
        </Button>
      ) : null}
    </div>
  );
}

export function FullPageLoading() {
  const t = useMessages(uiMessages);
  return (
    <div className={styles.fullPage} role="status">
      {t('loading')}
    </div>
  );
}
