import type { FunnelPageData } from '@embudo/contracts';
import type { MessageKey } from '../i18n/catalog';
import { greetingName, personalise } from '../lib/greeting';
import { htmlToText } from '../lib/html-text';
import type { View } from './choose-view';

/**
 * The tab's title for the view on screen (visitor-behaviour §2.4: a page's headline without markup, greeted by
 * name). The server writes it into `<title>` and the browser keeps it in step on every change of
 * view or page, so one function decides both.
 */
export function documentTitle(
  view: View,
  data: FunnelPageData | null,
  t: (key: MessageKey) => string,
): string {
  switch (view.kind) {
    case 'page':
      return data
        ? htmlToText(personalise(data.headline, greetingName(data.lead.name, t('greeting.default')))) ||
            'Embudo'
        : 'Embudo';
    case 'expired':
      return data?.expiredPage?.title || t('expired.title');
    case 'legal':
      return t(view.page === 'terms' ? 'footer.terms' : 'footer.privacy');
    case 'loading':
    case 'notFound':
    case 'invalidLink':
      return t('notFound.title');
  }
}
