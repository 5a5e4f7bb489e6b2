import type {
  FirstRunSetup,
  InvitationAccept,
  PasswordChange,
  ProfileUpdate,
  SignIn,
  StudioSession,
} from '@embudo/contracts';
import { conflict, notFound, unauthorized } from '../../lib/http-errors';
import type { AccountService } from '../accounts/account.service';
import type { MemberService } from '../members/member.service';
import type { UserService } from '../users/user.service';
import type { LiveSession, SessionService } from './session.service';

export interface StudioAuthDeps {
  users: Pick<
    UserService,
    | 'anyUser'
    | 'changePassword'
    | 'checkPassword'
    | 'create'
    | 'findByEmail'
    | 'get'
    | 'updateProfile'
    | 'validateNewPassword'
  >;
  sessions: Pick<SessionService, 'end' | 'endOthers' | 'start' | 'switchAccount'>;
  members: Pick<MemberService, 'accept' | 'add' | 'isOpen' | 'membership' | 'membershipsOf' | 'preview'>;
  accounts: Pick<AccountService, 'create'>;
  /** Claims the first run once (false if another claim won); released if the setup fails. */
  firstRun: { claim: () => Promise<boolean>; release: () => Promise<void> };
}

/** A signed-in answer: the session (the cookie's token, once) and what the Studio shows. */
export interface SignedIn {
  token: string;
  answer: StudioSession;
}

const WRONG = 'wrong e-mail or password';

/** Sign-in, first run, profile and invitations: the Studio's own routes under /api/auth (decision 21). */
export function createStudioAuthService({ users, sessions, members, accounts, firstRun }: StudioAuthDeps) {
  /** What GET /api/auth/session answers for a user working in an account. */
  const answer = async (userId: string, currentAccountId: string): Promise<StudioSession> => {
    const memberships = await members.membershipsOf(userId);
    const current = memberships.find((m) => m.account.id === currentAccountId);
    if (!current) throw unauthorized('you are no longer a member of this account: sign in again');
    return { user: await users.get(userId), memberships, currentAccountId, role: current.role };
  };

  /** A new session in the user's given account, or their first one. */
  const signInto = async (userId: string, accountId?: string): Promise<SignedIn> => {
    const memberships = await members.membershipsOf(userId);
    const chosen = accountId ?? memberships[0]?.account.id;
    if (chosen === undefined)
      throw unauthorized('this user belongs to no account yet: ask an owner for an invitation');
    const { token } = await sessions.start(userId, chosen);
    return { token, answer: await answer(userId, chosen) };
  };

  return {
    setupNeeded: async () => !(await users.anyUser()),

    /** The first run: the first user, owner of a new account, signed in. 409 once any user exists. */
    async setup(input: FirstRunSetup): Promise<SignedIn> {
      const done = () => conflict('the first run is done: sign in instead');
      users.validateNewPassword(input.password, 'body.password');
      if (await users.anyUser()) throw done();
      if (!(await firstRun.claim())) throw done();
      try {
        const { account } = await accounts.create({
          slug: input.accountSlug,
          name: input.accountName,
          ...(input.timeZone !== undefined ? { settings: { timeZone: input.timeZone } } : {}),
        });
        const user = await users.create({
          email: input.email,
          name: input.name,
          password: input.password,
          language: input.language ?? null,
        });
        await members.add(user.id, account.id, 'owner');
        return await signInto(user.id, account.id);
      } catch (error) {
        await firstRun.release();
        throw error;
      }
    },

    /** The same 401 for an unknown e-mail and a wrong password. */
    async signIn(input: SignIn): Promise<SignedIn> {
      const user = await users.checkPassword(input.email, input.password);
      if (!user) throw unauthorized(WRONG);
      return signInto(user.id);
    },

    signOut: (session: LiveSession) => sessions.end(session.id),

    preview: (token: string) => members.preview(token),

    session: (session: LiveSession) => answer(session.userId, session.currentAccountId),

    async switchAccount(session: LiveSession, accountId: string): Promise<StudioSession> {
      if (!(await members.membership(session.userId, accountId))) throw notFound('account');
      await sessions.switchAccount(session.id, accountId);
      return answer(session.userId, accountId);
    },

    async updateProfile(session: LiveSession, patch: ProfileUpdate): Promise<StudioSession> {
      await users.updateProfile(session.userId, patch);
      return answer(session.userId, session.currentAccountId);
    },

    /** Checks the current password, sets the new one, and ends every other session of the user. */
    async changePassword(session: LiveSession, input: PasswordChange): Promise<void> {
      await users.changePassword(session.userId, input.currentPassword, input.newPassword);
      await sessions.endOthers(session.userId, session.id);
    },

    /**
     * Accepts an invitation: a signed-in user joins with their own user (and works in the account
     * from now on); anyone else creates their user with the body. An e-mail that has a user must sign
     * in first (409).
     */
    async acceptInvitation(
      token: string,
      session: LiveSession | undefined,
      body: InvitationAccept,
    ): Promise<{ answer: StudioSession; token?: string }> {
      if (session) {
        const accountId = await members.accept(token, session.userId);
        await sessions.switchAccount(session.id, accountId);
        return { answer: await answer(session.userId, accountId) };
      }
      if (!body) throw unauthorized('sign in first, or send name, e-mail and password to create your user');
      if (!(await members.isOpen(token))) throw notFound('invitation');
      if (await users.findByEmail(body.email))
        throw conflict('a user with this e-mail exists: sign in first, then open the link again');
      const user = await users.create({ email: body.email, name: body.name, password: body.password });
      const accountId = await members.accept(token, user.id);
      const signedIn = await signInto(user.id, accountId);
      return { answer: signedIn.answer, token: signedIn.token };
    },
  };
}
export type StudioAuthService = ReturnType<typeof createStudioAuthService>;
