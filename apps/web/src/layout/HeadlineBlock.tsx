import type { FunnelPageData } from '@embudo/contracts';
import { useT } from '../i18n/I18nProvider';
import { greetingName, personalise } from '../lib/greeting';

/**
 * Top line, headline and subheadline (visitor-behaviour §2.3, §2.4): each only when its show flag is set, each in
 * its own colour, with {name} filled. The HTML was sanitised with the one policy when the owner saved
 * it (architecture §5.8). The containers are divs: owner HTML may hold paragraphs, lists and headings,
 * which a <p> or <h1> would make the HTML parser split, and the page would not hydrate as rendered.
 */
export function HeadlineBlock({ data }: { data: FunnelPageData }) {
  const greeting = greetingName(data.lead.name, useT()('greeting.default'));
  return (
    <>
      {data.showTopLine && data.topline !== '' ? (
        <div
          className="topline"
          style={{ color: data.topLineColor }}
          dangerouslySetInnerHTML={{ __html: personalise(data.topline, greeting) }}
        />
      ) : null}
      {data.showHeadLine ? (
        <div
          className="headline"
          role="heading"
          aria-level={1}
          style={{ color: data.headlineColor }}
          dangerouslySetInnerHTML={{ __html: personalise(data.headline, greeting) }}
        />
      ) : null}
      {data.showSubHeadLine && data.subheadline !== '' ? (
        <div
          className="subheadline"
          style={{ color: data.subHeadlineColor }}
          dangerouslySetInnerHTML={{ __html: personalise(data.subheadline, greeting) }}
        />
      ) : null}
    </>
  );
}
