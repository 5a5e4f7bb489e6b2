import { useT } from '../i18n/I18nProvider';

/**
 * Footer with the legal disclaimers (visitor-behaviour §2.3) and the legal pages, opened in a new tab at the
 * current path with page=terms or page=privacy (visitor-behaviour §2.2).
 */
export function Footer({ path, chat }: { path: string; chat: boolean }) {
  const t = useT();
  const link = (page: 'terms' | 'privacy') => `${path}${path.includes('?') ? '&' : '?'}page=${page}`;
  return (
    <footer className="site-footer">
      <p>{t('footer.notAffiliated')}</p>
      {chat ? <p>{t('footer.chatNotice')}</p> : null}
      <nav>
        <a href={link('terms')} target="_blank" rel="noopener">
          {t('footer.terms')}
        </a>
        {' · '}
        <a href={link('privacy')} target="_blank" rel="noopener">
          {t('footer.privacy')}
        </a>
      </nav>
    </footer>
  );
}
