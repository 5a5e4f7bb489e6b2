import type {
  Account,
  AnalyticsRange,
  FollowUpList,
  FollowUpQuery,
  FunnelAnalytics,
  LeadTimeline,
  PageAnalytics,
} from '@embudo/contracts';
import { badRequest } from '../../lib/http-errors';
import { dayText } from '../../lib/zone-days';
import type { LeadService } from '../leads/lead.service';
import type { PageService } from '../pages/page.service';
import { resolveRange } from './analytics-range';
import { secondsOf, type AnswerPageQuery } from './answer-page.query';
import type { DatabaseRollups } from './database-rollups';
import type { FollowUpsQuery } from './follow-ups.query';
import type { LeadTimelineQuery } from './lead-timeline.query';
import type { PageAnswers } from './page-answers';

export interface AnalyticsReportsDeps {
  rollups: Pick<DatabaseRollups, 'pageNumbers' | 'funnelNumbers'>;
  /** What a page's answer needs of the page, with its version (`answer-page.query.ts`). */
  answerPage: AnswerPageQuery;
  /** Finished page answers, each current while its page's version is (`page-answers.ts`). */
  pageAnswers: PageAnswers;
  pages: Pick<PageService, 'list'>;
  leads: Pick<LeadService, 'get'>;
  followUps: FollowUpsQuery;
  leadTimeline: LeadTimelineQuery;
  now?: () => number;
}

/**
 * What the owner reads of analytics (issue 19, decision 25): a page's numbers and a funnel's steps over
 * days of the account's time zone, the follow-up list and a lead's timeline; each for the caller's
 * account only (a page, funnel or lead of another is a 404, as everywhere in the owner API).
 */
export function createAnalyticsReportsService({
  rollups,
  pages,
  leads,
  followUps,
  leadTimeline,
  answerPage,
  pageAnswers,
  now = Date.now,
}: AnalyticsReportsDeps) {
  return {
    /**
     * A page's numbers over the range, as the JSON text of a `PageAnalytics`: the one kept from the last
     * time it was asked for while no batch has changed the page since, made again otherwise.
     */
    async page(owner: Account, pageId: string, query: AnalyticsRange): Promise<string> {
      const { page: input, version } = await answerPage(owner, pageId);
      const { timeZone } = owner.settings;
      const range = resolveRange(query, timeZone, now);
      const key = `${input.id}|${timeZone}|${range.from}|${range.to}|${input.funnelId}|${input.position}|${input.buttonTimeSeconds}`;
      const kept = pageAnswers.get(key, version);
      if (kept !== undefined) return kept;
      const numbers = await rollups.pageNumbers(input, range);
      const answer: PageAnalytics = {
        pageId: input.id,
        from: dayText(range.from),
        to: dayText(range.to),
        timeZone,
        ...numbers,
        byDay: numbers.byDay.map(({ day, ...counts }) => ({ date: dayText(day), ...counts })),
      };
      const body = JSON.stringify(answer);
      pageAnswers.set(key, version, body);
      return body;
    },

    async funnel(owner: Account, funnelId: string, query: AnalyticsRange): Promise<FunnelAnalytics> {
      const funnelPages = await pages.list(owner, funnelId);
      const { timeZone } = owner.settings;
      const range = resolveRange(query, timeZone, now);
      const numbers = await rollups.funnelNumbers(
        funnelId,
        funnelPages.map((page) => ({
          id: page.id,
          funnelId,
          position: page.position,
          buttonTimeSeconds: secondsOf(page.buttonTime),
        })),
        range,
      );
      return {
        funnelId,
        from: dayText(range.from),
        to: dayText(range.to),
        timeZone,
        steps: numbers.steps,
        byDay: numbers.byDay.map(({ day, ...counts }) => ({ date: dayText(day), ...counts })),
      };
    },

    async followUps(owner: Account, funnelId: string, query: FollowUpQuery): Promise<FollowUpList> {
      const funnelPages = await pages.list(owner, funnelId);
      const answer = await followUps(
        funnelId,
        funnelPages.map((page) => ({
          id: page.id,
          position: page.position,
          buttonTimeSeconds: secondsOf(page.buttonTime),
        })),
        query,
      );
      if (answer === 'bad cursor') {
        throw badRequest('cursor is not one this list gave', [
          { path: 'query.cursor', message: 'not a cursor of this list' },
        ]);
      }
      return answer;
    },

    async leadTimeline(owner: Account, leadId: string): Promise<LeadTimeline> {
      const lead = await leads.get(owner, leadId);
      return leadTimeline(lead);
    },
  };
}
export type AnalyticsReportsService = ReturnType<typeof createAnalyticsReportsService>;
