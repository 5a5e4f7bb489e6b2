import {
  INVITATION_TTL_DAYS,
  Role,
  type Account,
  type AccountMembership,
  type Invitation,
  type InvitationCreate,
  type InvitationCreated,
  type InvitationPreview,
  type Member,
} from '@embudo/contracts';
import type { Db } from '../../db';
import { conflict, notFound } from '../../lib/http-errors';
import { toIso } from '../../lib/json';
import { hashToken, newId, newToken } from '../../lib/tokens';
import { toAccount } from '../accounts/account.service';
import type { InvitationRow, MemberRepo } from './member.repo';

export interface MemberServiceDeps {
  members: Pick<
    MemberRepo,
    | 'accept'
    | 'find'
    | 'insert'
    | 'insertInvitation'
    | 'invitationByHash'
    | 'ofAccount'
    | 'ofUser'
    | 'openInvitations'
    | 'remove'
    | 'revokeInvitation'
    | 'setRole'
  >;
  /** Ends a removed member's sessions in the account, inside the removal's transaction. */
  endSessionsInAccount: (trx: Db, userId: string, accountId: string) => Promise<void>;
  /** `${PUBLIC_URL}/studio/invite/<token>` */
  invitationUrl: (token: string) => string;
  now?: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const LAST_OWNER = 'an account keeps at least one owner: make another member owner first';

const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  role: Role.parse(row.role),
  email: row.email,
  createdAt: toIso(row.createdAt),
  expiresAt: toIso(row.expiresAt),
});

/** Who belongs to an account with which role, and the links that let someone join (architecture §7). */
export function createMemberService({
  members,
  endSessionsInAccount,
  invitationUrl,
  now = Date.now,
}: MemberServiceDeps) {
  const member = async (account: Account, userId: string): Promise<Member> => {
    const found = (await members.ofAccount(account.id)).find((m) => m.userId === userId);
    if (!found) throw notFound('member');
    return { ...found, role: Role.parse(found.role), joinedAt: toIso(found.joinedAt) };
  };
  return {
    /** A user's role in an account, and the account; undefined when not a member. */
    async membership(
      userId: string,
      accountId: string,
    ): Promise<{ account: Account; role: Role } | undefined> {
      const row = await members.find(userId, accountId);
      return row ? { account: toAccount(row), role: Role.parse(row.role) } : undefined;
    },

    async membershipsOf(userId: string): Promise<AccountMembership[]> {
      return (await members.ofUser(userId)).map((m) => ({
        account: { id: m.id, slug: m.slug, name: m.name },
        role: Role.parse(m.role),
      }));
    },

    /** Adds a member (first run, CLI); false when they already were one (their role is kept). */
    add: (userId: string, accountId: string, role: Role) =>
      members.insert({ userId, accountId, role, createdAt: now() }),

    async list(account: Account): Promise<Member[]> {
      return (await members.ofAccount(account.id)).map((m) => ({
        ...m,
        role: Role.parse(m.role),
        joinedAt: toIso(m.joinedAt),
      }));
    },

    async updateRole(account: Account, userId: string, role: Role): Promise<Member> {
      await member(account, userId);
      if ((await members.setRole(userId, account.id, role)) === 0) throw conflict(LAST_OWNER);
      return member(account, userId);
    },

    /** Removes a member and ends their sessions in this account at once. */
    async remove(account: Account, userId: string): Promise<void> {
      await member(account, userId);
      const removed = await members.remove(userId, account.id, (trx) =>
        endSessionsInAccount(trx, userId, account.id),
      );
      if (removed === 0) throw conflict(LAST_OWNER);
    },

    async invitations(account: Account): Promise<Invitation[]> {
      return (await members.openInvitations(account.id, now())).map(toInvitation);
    },

    /** A one-time link, shown this once; only its token's hash is stored. */
    async invite(
      account: Account,
      input: InvitationCreate,
      createdBy: string | null,
    ): Promise<InvitationCreated> {
      const token = newToken();
      const at = now();
      const row: InvitationRow = {
        id: newId(),
        tokenHash: hashToken(token),
        accountId: account.id,
        role: input.role,
        email: input.email ?? null,
        createdBy,
        createdAt: at,
        expiresAt: at + INVITATION_TTL_DAYS * DAY_MS,
        acceptedAt: null,
        revokedAt: null,
      };
      await members.insertInvitation(row);
      return { invitation: toInvitation(row), url: invitationUrl(token) };
    },

    async revokeInvitation(account: Account, id: string): Promise<void> {
      if ((await members.revokeInvitation(id, account.id, now())) === 0) throw notFound('invitation');
    },

    /** What an open invitation offers; 404 once used, revoked or expired. */
    async preview(token: string): Promise<InvitationPreview> {
      const row = await members.invitationByHash(hashToken(token), now());
      if (!row) throw notFound('invitation');
      return {
        accountName: row.accountName,
        role: Role.parse(row.role),
        email: row.email,
        expiresAt: toIso(row.expiresAt),
      };
    },

    /** Whether an invitation is open (before a new user is created for it). */
    async isOpen(token: string): Promise<boolean> {
      return (await members.invitationByHash(hashToken(token), now())) !== undefined;
    },

    /** Uses the invitation: the user joins its account (404 if it is no longer open). The account's id. */
    async accept(token: string, userId: string): Promise<string> {
      const row = await members.invitationByHash(hashToken(token), now());
      if (!row) throw notFound('invitation');
      const joined = await members.accept(row.id, {
        userId,
        accountId: row.accountId,
        role: row.role,
        createdAt: now(),
      });
      if (!joined) throw notFound('invitation');
      return row.accountId;
    },
  };
}
export type MemberService = ReturnType<typeof createMemberService>;
