import type { FunnelPageData } from '@embudo/contracts';
import { useDeferredComponents } from '../app/deferred-components';
import { useButtonVisibility } from '../button/use-button-visibility';
import { Footer } from '../layout/Footer';
import { HeadlineBlock } from '../layout/HeadlineBlock';
import { ActionButton, BlockedWindow } from '../page-actions/ActionButton';
import { InactivityPrompt } from '../page-actions/InactivityPrompt';
import { usePageActions } from '../page-actions/use-page-actions';
import { fomoEnabled, fomoSite } from '../persuasion/persuasion-rules';
import { useSession } from '../tracking/SessionProvider';

/**
 * The simple landing variant (visitor-behaviour §2.3): the headline block and the button, and the inactivity
 * question of visitor-behaviour §4.3 as on every tracked page. The WhatsApp variant
 * lays out around the chat button, which sends the pixel event and then opens the chat in the same
 * tab (visitor-behaviour §4.7), and adds the chat notice to the footer's disclaimers.
 */
export function LandingPage({
  data,
  path,
  reload,
  children,
}: {
  data: FunnelPageData;
  path: string;
  reload: () => Promise<unknown>;
  children?: React.ReactNode;
}) {
  const chat = data.buttonAction === 'LPI-REDIRECT-WPP';
  const visibility = useButtonVisibility({
    pageId: data.idPage,
    buttonTime: data.buttonTime,
    isComplete: data.isComplete,
    silentPlayer: false,
    noVideo: true,
  });
  const actions = usePageActions({
    data,
    reload,
    buttonVisible: visibility.visible,
    flushVideo: () => undefined,
  });
  const { location } = useSession();
  const { FomoPopups } = useDeferredComponents();
  return (
    <div className={chat ? 'landing landing-chat' : 'landing'}>
      <main className="landing-main">
        <HeadlineBlock data={data} />
        {data.buttonCopy !== '' ? (
          <ActionButton data={data} visible={visibility.visible} actions={actions} />
        ) : null}
        {children}
      </main>
      <Footer path={path} chat={chat} />
      <BlockedWindow actions={actions} />
      {fomoEnabled(data) ? (
        <FomoPopups idFunnel={data.idFunnel} site={fomoSite(data)} location={location} />
      ) : null}
      <InactivityPrompt />
    </div>
  );
}
