import type { FunnelPageData } from '@embudo/contracts';
import { Footer } from '../layout/Footer';
import { useT } from '../i18n/I18nProvider';
import { greetingName, personalise } from '../lib/greeting';

/**
 * The main funnel page (spec §2.4): background image, headline block and footer. Video, button and
 * the timed persuasion elements arrive with their own features.
 */
export function FunnelPage({
  data,
  path,
  children,
}: {
  data: FunnelPageData;
  path: string;
  children?: React.ReactNode;
}) {
  const greeting = greetingName(data.lead.name, useT()('greeting.default'));
  return (
    <div
      className="funnel"
      style={data.bgImageUrl ? { backgroundImage: `url(${JSON.stringify(data.bgImageUrl)})` } : undefined}
    >
      <main className="funnel-page">
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
      <Footer path={path} chat={false} />
    </div>
  );
}
