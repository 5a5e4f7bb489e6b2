import type { FomoResponse } from '@embudo/contracts';
import { TIMING } from '@embudo/contracts/runtime';
import { useEffect, useState } from 'react';
import { callRoute, VISITOR_ROUTE_PATHS } from '../api/http-client';
import { useT } from '../i18n/I18nProvider';
import { useShownAt } from '../lib/deferred';
import { flagCode, minutesAgo, type FomoSite } from './persuasion-rules';

interface Shown {
  key: number;
  text: string;
  /** Where the person is ('Monterrey, MX'); empty when unknown. */
  place: string;
  ago: number;
  flag: string | null;
  fading: boolean;
}

/**
 * Social-proof popups (visitor-behaviour §4.8): the first 15 s after the page shows, then one every `interval`
 * seconds, each on screen 7 s with a 500 ms fade, on the configured side, saying "n minutes ago"
 * (1 to 10) in the page's language, with the country's flag from our own assets. They float over
 * the page, so nothing under them moves.
 */
export function FomoPopups({
  idFunnel,
  site,
  location,
}: {
  idFunnel: string;
  site: FomoSite;
  /** The visitor's location ({} when unknown); null while it is being looked up. */
  location: Record<string, unknown> | null;
}) {
  const t = useT();
  const [answer, setAnswer] = useState<FomoResponse | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  // The 15 s count from when the page showed, not from when the messages arrived.
  const shownAt = useShownAt();

  useEffect(() => {
    if (location === null) return;
    let gone = false;
    callRoute(VISITOR_ROUTE_PATHS.fomo.messages, { body: { idFunnel, location, site } })
      .then((fomo) => {
        if (!gone) setAnswer(fomo);
      })
      .catch((error: unknown) => {
        console.error('Error loading social proof', error);
      });
    return () => {
      gone = true;
    };
  }, [idFunnel, site, location]);

  useEffect(() => {
    const messages = answer?.messages ?? [];
    if (messages.length === 0) return;
    const interval = Math.max(1, answer?.interval ?? 20) * 1000;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const later = (ms: number, run: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, ms);
      timers.add(timer);
    };
    let index = 0;
    const showNext = () => {
      const message = messages[index % messages.length];
      index += 1;
      if (message) {
        const key = index;
        const text = message.messageTemplate
          .split('{name}')
          .join(message.name)
          .split('{location}')
          .join(message.location);
        setShown({
          key,
          text,
          place: message.location,
          ago: minutesAgo(),
          flag: flagCode(message.countryCode),
          fading: false,
        });
        later(TIMING.fomoShown - TIMING.fomoFade, () => {
          setShown((current) => (current?.key === key ? { ...current, fading: true } : current));
        });
        later(TIMING.fomoShown, () => {
          setShown((current) => (current?.key === key ? null : current));
        });
      }
      later(interval, showNext);
    };
    later(Math.max(0, TIMING.fomoFirst - (Date.now() - shownAt())), showNext);
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, [answer, shownAt]);

  if (!shown || !answer) return null;
  return (
    <div
      key={shown.key}
      className={`fomo fomo-${answer.position}${shown.fading ? ' fomo-leaving' : ''}`}
      role="status"
    >
      {shown.flag ? (
        <img className="fomo-flag" src={`/assets/flags/${shown.flag}.svg`} alt="" width={24} height={18} />
      ) : null}
      <p className="fomo-text">
        {shown.text}
        {shown.place && !shown.text.includes(shown.place) ? (
          <small className="fomo-place">{shown.place}</small>
        ) : null}
        <small className="fomo-ago">
          {shown.ago === 1 ? t('fomo.oneMinuteAgo') : t('fomo.minutesAgo', { n: shown.ago })}
        </small>
      </p>
    </div>
  );
}
