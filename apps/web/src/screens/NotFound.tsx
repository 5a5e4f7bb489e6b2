import { useT } from '../i18n/I18nProvider';

/** The default not-found view (visitor-behaviour §2.5): centred on black. */
export function NotFound() {
  const t = useT();
  return (
    <main className="screen screen-center not-found">
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.description')}</p>
    </main>
  );
}
