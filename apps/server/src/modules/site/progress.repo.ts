import type { Db } from '../../db';

/** A lead's progress per page: completion and the video resume point (DESIGN §4). */
export function createProgressRepo(db: Db) {
  return {
    find: (leadId: string, pageId: string) =>
      db
        .selectFrom('leadPageProgress')
        .selectAll()
        .where('leadId', '=', leadId)
        .where('pageId', '=', pageId)
        .executeTakeFirst(),
  };
}
export type ProgressRepo = ReturnType<typeof createProgressRepo>;
