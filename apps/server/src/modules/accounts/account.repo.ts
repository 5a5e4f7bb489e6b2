import { reusableQuery } from '../../db/reusable-query';
import { AccountSettings, SubscriptionStatus, type Account } from '@embudo/contracts';
import type { Db } from '../../db';
import type { Database } from '../../db/schema';
import { readJson, toIso } from '../../lib/json';

export type AccountRow = Database['accounts'];

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    subscriptionStatus: SubscriptionStatus.parse(row.subscriptionStatus),
    settings: readJson(AccountSettings, row.settings),
    createdAt: toIso(row.createdAt),
  };
}

export function createAccountRepo(db: Db) {
  // Read for every visitor page: built and compiled once.
  const byId = reusableQuery(db, ['id'], ({ id }) =>
    db.selectFrom('accounts').selectAll().where('id', '=', id),
  );
  const bySlug = reusableQuery(db, ['slug'], ({ slug }) =>
    db.selectFrom('accounts').selectAll().where('slug', '=', slug),
  );
  // Read for every owner request made with an API key.
  const byKeyHash = reusableQuery(db, ['keyHash'], ({ keyHash }) =>
    db
      .selectFrom('apiKeys')
      .innerJoin('accounts', 'accounts.id', 'apiKeys.accountId')
      .selectAll('accounts')
      .select('apiKeys.id as keyId')
      .where('apiKeys.keyHash', '=', keyHash),
  );
  return {
    async insert(row: AccountRow, apiKey: Database['apiKeys']): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('accounts').values(row).execute();
        await trx.insertInto('apiKeys').values(apiKey).execute();
      });
    },
    findById: async (id: string) => (await byId({ id }))[0],
    findBySlug: async (slug: string) => (await bySlug({ slug }))[0],
    list: () => db.selectFrom('accounts').selectAll().orderBy('createdAt').execute(),
    async update(
      id: string,
      values: Partial<Pick<AccountRow, 'name' | 'settings' | 'subscriptionStatus'>>,
    ): Promise<void> {
      // An empty patch changes nothing (SQL has no empty SET).
      if (Object.keys(values).length === 0) return;
      await db.updateTable('accounts').set(values).where('id', '=', id).execute();
    },
    /** The account an API key belongs to, by the key's hash. */
    findByKeyHash: async (keyHash: string) => (await byKeyHash({ keyHash }))[0],
    async insertApiKey(row: Database['apiKeys']): Promise<void> {
      await db
        .insertInto('apiKeys')
        .values(row)
        .onConflict((oc) => oc.column('keyHash').doNothing())
        .execute();
    },
    /** The account's keys, oldest first, without their hashes. */
    listApiKeys: (accountId: string) =>
      db
        .selectFrom('apiKeys')
        .select(['id', 'label', 'prefix', 'createdAt', 'lastUsedAt'])
        .where('accountId', '=', accountId)
        .orderBy('createdAt')
        .orderBy('id')
        .execute(),
    /** Deletes the account's key `id`; whether there was one. */
    async deleteApiKey(accountId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('apiKeys')
        .where('id', '=', id)
        .where('accountId', '=', accountId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async touchApiKey(id: string, at: number): Promise<void> {
      await db.updateTable('apiKeys').set({ lastUsedAt: at }).where('id', '=', id).execute();
    },
  };
}
export type AccountRepo = ReturnType<typeof createAccountRepo>;
