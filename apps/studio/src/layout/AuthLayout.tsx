import { Outlet } from '@tanstack/react-router';
import { useId, type ReactNode } from 'react';
import { LANGUAGE_NAMES, LANGUAGES, useLanguage, useMessages, type Language } from '../i18n/i18n';
import styles from './AuthLayout.module.css';
import { layoutMessages } from './messages';

/** The signed-out screens: the brand, one card, and a choice of language. */
export function AuthLayout() {
  const t = useMessages(layoutMessages);
  const { language, setLanguage } = useLanguage();
  const id = useId();
  return (
    <div className={styles.page}>
      <div className={styles.brand}>
        <span className={styles.logo} aria-hidden="true">
          E
        </span>
        {t('studio')}
      </div>
      <main className={styles.main}>
        <Outlet />
      </main>
      <div className={styles.footer}>
        <label htmlFor={id}>{t('language')}</label>
        <select
          id={id}
          className={styles.language}
          value={language}
          onChange={(event) => {
            setLanguage(event.target.value as Language);
          }}
        >
          {LANGUAGES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** One signed-out screen's card: its title, a line on what it does, and its form. */
export function AuthCard({
  title,
  lead,
  wide = false,
  children,
}: {
  title: string;
  lead?: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <section className={[styles.card, wide ? styles.wide : ''].join(' ')}>
      <div>
        <h1 className={styles.title}>{title}</h1>
        {lead ? <p className={styles.lead}>{lead}</p> : null}
      </div>
      {children}
    </section>
  );
}
