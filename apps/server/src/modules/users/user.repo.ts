import type { Db } from '../../db';
import type { Database } from '../../db/schema';

export type UserRow = Database['users'];

const FIRST_RUN_KEY = 'studio_first_run';

/** The Studio's users. E-mail addresses arrive lower-case (the service's job). */
export function createUserRepo(db: Db) {
  return {
    async insert(row: UserRow): Promise<void> {
      await db.insertInto('users').values(row).execute();
    },
    findById: (id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
    findByEmail: (email: string) =>
      db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst(),
    /** Whether any user exists (the first run is over once one does). */
    async any(): Promise<boolean> {
      return (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
    },
    /**
     * Claims the first run (a row of instance_settings whose key is unique): of two setups at once, one
     * claims it, the other gets false.
     */
    async claimFirstRun(at: number): Promise<boolean> {
      const result = await db
        .insertInto('instanceSettings')
        .values({ key: FIRST_RUN_KEY, value: String(at) })
        .onConflict((oc) => oc.column('key').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    /** Gives the claim back when the first run failed (a taken slug), so it can be tried again. */
    async releaseFirstRun(): Promise<void> {
      await db.deleteFrom('instanceSettings').where('key', '=', FIRST_RUN_KEY).execute();
    },
    async update(
      id: string,
      values: Partial<Pick<UserRow, 'name' | 'language' | 'passwordHash' | 'passwordParams'>> & {
        updatedAt: number;
      },
    ): Promise<void> {
      await db.updateTable('users').set(values).where('id', '=', id).execute();
    },
  };
}
export type UserRepo = ReturnType<typeof createUserRepo>;
