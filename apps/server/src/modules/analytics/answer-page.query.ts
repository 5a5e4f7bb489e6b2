import { ButtonTime, type Account } from '@embudo/contracts';
import { z } from 'zod';
import type { Db } from '../../db';
import { reusableQuery } from '../../db/reusable-query';
import { notFound } from '../../lib/http-errors';
import { readJson } from '../../lib/json';
import type { PageInput } from './analytics-types';

/** The one field of a page's stored content that its answer needs. */
const StoredButtonTime = z.looseObject({ buttonTime: ButtonTime });

export const secondsOf = ({ hours, minutes, seconds }: ButtonTime): number =>
  hours * 3600 + minutes * 60 + seconds;

export interface AnswerPage {
  page: PageInput;
  /** The page's rollup version (0 before its first batch): a kept answer is current while it holds. */
  version: number;
}

/**
 * What a page's answer needs of the page (its funnel, position and button time), for the owner's own
 * pages only (another account's is a 404, as everywhere in the owner API), read together with the
 * page's rollup version in one statement: a dashboard polling a kept answer then costs its key's read
 * and this one (bench row 9). The version is read with the page, before the rows: a batch committed
 * while the rows are read leaves the answer under the older version, which the next request no
 * longer takes.
 */
export function createAnswerPageQuery(db: Db) {
  const read = reusableQuery(db, ['pageId', 'accountId'], ({ pageId, accountId }) =>
    db
      .selectFrom('pages')
      .innerJoin('funnels', 'funnels.id', 'pages.funnelId')
      .leftJoin('analyticsPageVersions', 'analyticsPageVersions.pageId', 'pages.id')
      .select([
        'pages.id',
        'pages.funnelId',
        'pages.position',
        'pages.content',
        'analyticsPageVersions.version',
      ])
      .where('pages.id', '=', pageId)
      .where('funnels.accountId', '=', accountId),
  );
  return async function answerPage(owner: Pick<Account, 'id'>, pageId: string): Promise<AnswerPage> {
    const [row] = await read({ pageId, accountId: owner.id });
    if (row === undefined) throw notFound('page');
    const { buttonTime } = readJson(StoredButtonTime, row.content);
    return {
      page: {
        id: row.id,
        funnelId: row.funnelId,
        position: row.position,
        buttonTimeSeconds: secondsOf(buttonTime),
      },
      version: row.version ?? 0,
    };
  };
}
export type AnswerPageQuery = ReturnType<typeof createAnswerPageQuery>;
