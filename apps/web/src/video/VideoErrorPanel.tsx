import { useT } from '../i18n/I18nProvider';

/** Shown in place of the video when it fails to load (visitor-behaviour §2.5): a message and a reload button. */
export function VideoErrorPanel() {
  const t = useT();
  return (
    <div className="video-error" role="alert">
      <p className="video-error-title">{t('videoError.title')}</p>
      <button
        type="button"
        className="video-error-button"
        onClick={() => {
          window.location.reload();
        }}
      >
        {t('videoError.refresh')}
      </button>
    </div>
  );
}
