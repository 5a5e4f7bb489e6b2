import { useEffect } from 'react';
import { useT } from '../i18n/I18nProvider';
import { useSessionValue, writeSessionValue } from '../lib/session-value';
import { withPreviewToken } from '../lib/links';
import { PREVIEW_HISTORY_KEY, parseHistory, visit } from './preview-history';

/**
 * Preview mode (visitor-behaviour §2.4): a badge, and round arrows to the previous and next preview pages.
 * Forward shows when the page carries a next token; back when this tab has visited an earlier one.
 */
export function PreviewBar({ token, nextToken }: { token: string; nextToken: string | null }) {
  const t = useT();
  const stored = useSessionValue(PREVIEW_HISTORY_KEY);
  useEffect(() => {
    const next = visit(parseHistory(window.sessionStorage.getItem(PREVIEW_HISTORY_KEY)), token);
    writeSessionValue(PREVIEW_HISTORY_KEY, JSON.stringify(next));
  }, [token]);

  const history = stored === null ? null : parseHistory(stored);
  const here = history ? history.tokens.indexOf(token) : -1;
  const previous = history && here > 0 ? history.tokens[here - 1] : undefined;
  const go = (target: string) => {
    window.location.assign(withPreviewToken(window.location.href, target));
  };

  return (
    <div className="preview-bar">
      <span className="preview-badge">{t('preview.badge')}</span>
      {previous !== undefined ? (
        <button
          type="button"
          className="round-arrow"
          aria-label={t('preview.previous')}
          title={t('preview.previous')}
          onClick={() => {
            go(previous);
          }}
        >
          ←
        </button>
      ) : null}
      {nextToken ? (
        <button
          type="button"
          className="round-arrow"
          aria-label={t('preview.next')}
          title={t('preview.next')}
          onClick={() => {
            go(nextToken);
          }}
        >
          →
        </button>
      ) : null}
    </div>
  );
}
