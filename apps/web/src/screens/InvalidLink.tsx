import { useT } from '../i18n/I18nProvider';

/** The invalid-link screen (visitor-behaviour §2.5 "invalidToken"): shown for an unknown token or address. */
export function InvalidLink({ name }: { name: string }) {
  const t = useT();
  return (
    <main className="screen screen-center not-found">
      <h1>{t('invalidLink.title', { name })}</h1>
      <p>{t('invalidLink.description')}</p>
    </main>
  );
}
