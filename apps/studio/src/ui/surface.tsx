import { useEffect, type ReactNode } from 'react';
import styles from './surface.module.css';

export { styles as surfaceStyles };

/** The tab's title: the screen's, then the Studio's name. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Embudo Studio`;
  }, [title]);
}

/** A screen's title (also the tab's), what it is for, and its main actions. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <header className={styles.header}>
      <div className={styles.titles}>
        <h1 className={styles.title}>{title}</h1>
        {description ? <p className={styles.description}>{description}</p> : null}
      </div>
      {actions ? <div className={styles.headerActions}>{actions}</div> : null}
    </header>
  );
}

export function Card({
  title,
  description,
  actions,
  footer,
  flush = false,
  children,
  labelledBy,
}: {
  title?: string;
  description?: ReactNode;
  actions?: ReactNode;
  footer?: ReactNode;
  /** Content that lays itself out (a list): no padding. */
  flush?: boolean;
  children: ReactNode;
  labelledBy?: string;
}) {
  return (
    <section className={styles.card} aria-labelledby={labelledBy}>
      {title ? (
        <div className={styles.cardHeader}>
          <div>
            <h2 className={styles.cardTitle} id={labelledBy}>
              {title}
            </h2>
            {description ? <p className={styles.cardDescription}>{description}</p> : null}
          </div>
          {actions}
        </div>
      ) : null}
      {flush ? children : <div className={styles.cardBody}>{children}</div>}
      {footer ? <div className={styles.cardFooter}>{footer}</div> : null}
    </section>
  );
}

export function Stack({ children }: { children: ReactNode }) {
  return <div className={styles.stack}>{children}</div>;
}

export function Badge({
  tone = 'neutral',
  children,
}: {
  tone?: 'neutral' | 'accent' | 'success' | 'warning';
  children: ReactNode;
}) {
  return <span className={[styles.badge, styles[tone]].join(' ')}>{children}</span>;
}
