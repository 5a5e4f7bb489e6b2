import type { FunnelPageData } from '@embudo/contracts';

/**
 * The main funnel page (spec §2.4). This first cut renders the headline block server-side; video,
 * button and persuasion elements arrive with the visitor-app issues.
 */
export function FunnelPage({ data }: { data: FunnelPageData }) {
  return (
    <main
      className="funnel-page"
      style={data.bgImageUrl ? { backgroundImage: `url(${JSON.stringify(data.bgImageUrl)})` } : undefined}
    >
      {data.showTopLine && data.topline !== '' && (
        // Rich text was sanitised with the one policy when the owner saved it (DESIGN §5.8).
        <p
          className="topline"
          style={{ color: data.topLineColor }}
          dangerouslySetInnerHTML={{ __html: data.topline }}
        />
      )}
      {data.showHeadLine && (
        <h1
          className="headline"
          style={{ color: data.headlineColor }}
          dangerouslySetInnerHTML={{ __html: data.headline }}
        />
      )}
      {data.showSubHeadLine && data.subheadline !== '' && (
        <p
          className="subheadline"
          style={{ color: data.subHeadlineColor }}
          dangerouslySetInnerHTML={{ __html: data.subheadline }}
        />
      )}
    </main>
  );
}
