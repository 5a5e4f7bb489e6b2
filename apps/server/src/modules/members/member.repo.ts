import { sql } from 'kysely';
import type { Db } from '../../db';
import type { Database } from '../../db/schema';

export type MembershipRow = Database['memberships'];
export type InvitationRow = Database['invitations'];

/** Memberships of accounts (a user's role in each) and the invitations to join one. */
export function createMemberRepo(db: Db) {
  /** Whether the account has an owner other than this user (the last owner may not go). */
  const anotherOwner = (accountId: string, userId: string) =>
    sql<boolean>`exists (select 1 from memberships m2 where m2.account_id = ${accountId}
      and m2.role = 'owner' and m2.user_id <> ${userId})`;
  return {
    async insert(row: MembershipRow): Promise<boolean> {
      const result = await db
        .insertInto('memberships')
        .values(row)
        .onConflict((oc) => oc.columns(['userId', 'accountId']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    /** A user's membership of an account, with the account's row. */
    find: (userId: string, accountId: string) =>
      db
        .selectFrom('memberships')
        .innerJoin('accounts', 'accounts.id', 'memberships.accountId')
        .selectAll('accounts')
        .select(['memberships.role', 'memberships.createdAt as joinedAt'])
        .where('memberships.userId', '=', userId)
        .where('memberships.accountId', '=', accountId)
        .executeTakeFirst(),
    /** Every account a user belongs to, oldest membership first. */
    ofUser: (userId: string) =>
      db
        .selectFrom('memberships')
        .innerJoin('accounts', 'accounts.id', 'memberships.accountId')
        .select(['accounts.id', 'accounts.slug', 'accounts.name', 'memberships.role'])
        .where('memberships.userId', '=', userId)
        .orderBy('memberships.createdAt')
        .orderBy('accounts.id')
        .execute(),
    /** An account's members with their names, oldest first. */
    ofAccount: (accountId: string) =>
      db
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.userId')
        .select([
          'users.id as userId',
          'users.name',
          'users.email',
          'memberships.role',
          'memberships.createdAt as joinedAt',
        ])
        .where('memberships.accountId', '=', accountId)
        .orderBy('memberships.createdAt')
        .orderBy('users.id')
        .execute(),
    /**
     * Sets a member's role unless that would leave the account without an owner: one statement, so the
     * check and the change are one. The number of rows changed (0: no such member, or the last owner).
     */
    async setRole(userId: string, accountId: string, role: string): Promise<number> {
      const result = await db
        .updateTable('memberships')
        .set({ role })
        .where('userId', '=', userId)
        .where('accountId', '=', accountId)
        .$if(role !== 'owner', (q) =>
          q.where((eb) => eb.or([eb('role', '<>', 'owner'), anotherOwner(accountId, userId)])),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    /**
     * Removes a member unless they are the last owner, and does `alsoThen` (the ending of their sessions
     * in the account, the sessions module's write) in the same transaction.
     */
    async remove(userId: string, accountId: string, alsoThen: (trx: Db) => Promise<void>): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('memberships')
          .where('userId', '=', userId)
          .where('accountId', '=', accountId)
          .where((eb) => eb.or([eb('role', '<>', 'owner'), anotherOwner(accountId, userId)]))
          .executeTakeFirst();
        const removed = Number(result.numDeletedRows);
        if (removed > 0) await alsoThen(trx);
        return removed;
      });
    },

    async insertInvitation(row: InvitationRow): Promise<void> {
      await db.insertInto('invitations').values(row).execute();
    },
    /** Invitations not yet accepted, revoked or expired, newest first. */
    openInvitations: (accountId: string, now: number) =>
      db
        .selectFrom('invitations')
        .selectAll()
        .where('accountId', '=', accountId)
        .where('acceptedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .where('expiresAt', '>', now)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .execute(),
    /** An open invitation by its token's hash, with the account's name. */
    invitationByHash: (tokenHash: string, now: number) =>
      db
        .selectFrom('invitations')
        .innerJoin('accounts', 'accounts.id', 'invitations.accountId')
        .selectAll('invitations')
        .select('accounts.name as accountName')
        .where('invitations.tokenHash', '=', tokenHash)
        .where('invitations.acceptedAt', 'is', null)
        .where('invitations.revokedAt', 'is', null)
        .where('invitations.expiresAt', '>', now)
        .executeTakeFirst(),
    /** Revokes an open invitation of the account; the number revoked (0 or 1). */
    async revokeInvitation(id: string, accountId: string, at: number): Promise<number> {
      const result = await db
        .updateTable('invitations')
        .set({ revokedAt: at })
        .where('id', '=', id)
        .where('accountId', '=', accountId)
        .where('acceptedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    /**
     * Uses an invitation once and adds the membership it offers, in one transaction: of two accepting
     * at once, one wins. False when the invitation was no longer open.
     */
    async accept(invitationId: string, membership: MembershipRow): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const used = await trx
          .updateTable('invitations')
          .set({ acceptedAt: membership.createdAt })
          .where('id', '=', invitationId)
          .where('acceptedAt', 'is', null)
          .where('revokedAt', 'is', null)
          .where('expiresAt', '>', membership.createdAt)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) === 0) return false;
        // Already a member: the invitation is used and the role they have stays.
        await trx
          .insertInto('memberships')
          .values(membership)
          .onConflict((oc) => oc.columns(['userId', 'accountId']).doNothing())
          .execute();
        return true;
      });
    },
  };
}
export type MemberRepo = ReturnType<typeof createMemberRepo>;
