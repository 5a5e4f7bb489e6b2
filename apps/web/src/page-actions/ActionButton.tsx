import type { FunnelPageData } from '@embudo/contracts';
import { Suspense } from 'react';
import { CtaButton } from '../button/CtaButton';
import { useT } from '../i18n/I18nProvider';
import { greetingName, personalise } from '../lib/greeting';
import { LazyBlockedWindowModal } from '../modals/lazy';
import type { usePageActions } from './use-page-actions';

type PageActions = ReturnType<typeof usePageActions>;

/** The page's call-to-action button, with the lead's name in its copy, wired to the page's actions. */
export function ActionButton({
  data,
  visible,
  actions,
}: {
  data: FunnelPageData;
  visible: boolean;
  actions: PageActions;
}) {
  const t = useT();
  const greeting = greetingName(data.lead.name, t('greeting.default'));
  return (
    <CtaButton
      html={personalise(data.buttonCopy, greeting)}
      bgColor={data.buttonBgColor}
      textColor={data.buttonTextColor}
      visible={visible}
      busy={actions.busy}
      onClick={() => {
        void actions.onClick();
      }}
    />
  );
}

/**
 * The blocked-window modal a refused popup opens (visitor-behaviour §2.5, §4.7). Rendered outside <main>: its
 * code loads on demand, and its boundary stays out of the owner's content.
 */
export function BlockedWindow({ actions }: { actions: PageActions }) {
  return (
    <Suspense fallback={null}>
      {actions.blockedUrl !== null ? (
        <LazyBlockedWindowModal
          open
          url={actions.blockedUrl}
          onCancel={actions.closeBlocked}
          onContinue={actions.closeBlocked}
        />
      ) : null}
    </Suspense>
  );
}
