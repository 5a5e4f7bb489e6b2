import type { FunnelPageData } from '@embudo/contracts';
import { Footer } from '../layout/Footer';
import { HeadlineBlock } from '../layout/HeadlineBlock';

/**
 * The simple landing variant (spec §2.3). The WhatsApp variant lays out around the chat button and
 * adds the chat notice to the footer's disclaimers.
 */
export function LandingPage({
  data,
  path,
  children,
}: {
  data: FunnelPageData;
  path: string;
  children?: React.ReactNode;
}) {
  const chat = data.buttonAction === 'LPI-REDIRECT-WPP';
  return (
    <div className={chat ? 'landing landing-chat' : 'landing'}>
      <main className="landing-main">
        <HeadlineBlock data={data} />
        {children}
      </main>
      <Footer path={path} chat={chat} />
    </div>
  );
}
