import { reusableQuery } from '../../db/reusable-query';
import type { Db } from '../../db';

/** A lead's progress per page: completion and the video resume point (DESIGN §4). */
export function createProgressRepo(db: Db) {
  const byLeadAndPage = reusableQuery(db, ['leadId', 'pageId'], ({ leadId, pageId }) =>
    db.selectFrom('leadPageProgress').selectAll().where('leadId', '=', leadId).where('pageId', '=', pageId),
  );
  return {
    find: async (leadId: string, pageId: string) => (await byLeadAndPage({ leadId, pageId }))[0],
  };
}
export type ProgressRepo = ReturnType<typeof createProgressRepo>;
