import type { FunnelPageData } from '@embudo/contracts';
import { Footer } from '../layout/Footer';
import { HeadlineBlock } from '../layout/HeadlineBlock';

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
  return (
    <div
      className="funnel"
      style={data.bgImageUrl ? { backgroundImage: `url(${JSON.stringify(data.bgImageUrl)})` } : undefined}
    >
      <main className="funnel-page">
        <HeadlineBlock data={data} />
        {children}
      </main>
      <Footer path={path} chat={false} />
    </div>
  );
}
