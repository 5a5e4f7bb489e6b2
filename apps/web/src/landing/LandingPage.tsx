import type { FunnelPageData } from '@embudo/contracts';
import { Footer } from '../layout/Footer';
import { useT } from '../i18n/I18nProvider';
import { greetingName, personalise } from '../lib/greeting';

/**
 * The simple landing variant (spec §2.3): top line, headline and subheadline, each only when its
 * show flag is set and in its own colour; the WhatsApp variant lays out around the chat button.
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
  const greeting = greetingName(data.lead.name, useT()('greeting.default'));
  const chat = data.buttonAction === 'LPI-REDIRECT-WPP';
  return (
    <div className={chat ? 'landing landing-chat' : 'landing'}>
      <main className="landing-main">
        {/* Rich text was sanitised with the one policy when the owner saved it (DESIGN §5.8). */}
        {data.showTopLine && data.topline !== '' ? (
          <p
            className="topline"
            style={{ color: data.topLineColor }}
            dangerouslySetInnerHTML={{ __html: personalise(data.topline, greeting) }}
          />
        ) : null}
        {data.showHeadLine ? (
          <h1
            className="headline"
            style={{ color: data.headlineColor }}
            dangerouslySetInnerHTML={{ __html: personalise(data.headline, greeting) }}
          />
        ) : null}
        {data.showSubHeadLine && data.subheadline !== '' ? (
          <p
            className="subheadline"
            style={{ color: data.subHeadlineColor }}
            dangerouslySetInnerHTML={{ __html: personalise(data.subheadline, greeting) }}
          />
        ) : null}
        {children}
      </main>
      <Footer path={path} chat={chat} />
    </div>
  );
}
