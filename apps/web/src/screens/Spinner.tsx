import { useT } from '../i18n/I18nProvider';

/** Full-screen loading spinner (visitor-behaviour §2.2 step 1). */
export function Spinner() {
  const t = useT();
  return (
    <main className="screen screen-center" aria-busy="true">
      <div className="spinner" role="status" aria-label={t('common.loading')} />
    </main>
  );
}
