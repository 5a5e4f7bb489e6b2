import { randomBytes } from 'node:crypto';
import { hashToken, newId } from '../../lib/tokens';
import type { SessionRepo, SessionRow } from './session.repo';

export interface SessionServiceDeps {
  sessions: Pick<
    SessionRepo,
    | 'findByHash'
    | 'insert'
    | 'remove'
    | 'removeExpired'
    | 'removeInAccount'
    | 'removeOfUser'
    | 'setAccount'
    | 'touch'
  >;
  /** A session ends this long after it began, however busy (SESSION_MAX_AGE_DAYS). */
  maxAgeMs: number;
  /** …and this long after its last request (SESSION_IDLE_DAYS). */
  idleMs: number;
  now?: () => number;
}

/** 256 random bits, URL-safe; only its SHA-256 is stored. */
const TOKEN_BYTES = 32;
/** A session's last use is written at most this often: no write per request. */
const TOUCH_EVERY_MS = 60_000;

export interface LiveSession {
  id: string;
  userId: string;
  currentAccountId: string;
  expiresAt: number;
}

export function createSessionService({ sessions, maxAgeMs, idleMs, now = Date.now }: SessionServiceDeps) {
  return {
    /** A new session; its token goes into the cookie and nowhere else. */
    async start(userId: string, accountId: string): Promise<{ token: string; session: LiveSession }> {
      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      const at = now();
      const row: SessionRow = {
        id: newId(),
        tokenHash: hashToken(token),
        userId,
        currentAccountId: accountId,
        createdAt: at,
        lastSeenAt: at,
        expiresAt: at + maxAgeMs,
      };
      await sessions.insert(row);
      return {
        token,
        session: { id: row.id, userId, currentAccountId: accountId, expiresAt: row.expiresAt },
      };
    },

    /**
     * The live session a token opens, or undefined: unknown, past its absolute expiry, or idle too long
     * (such a session is deleted on the way). Its last use is written down at most once a minute.
     */
    async resolve(token: string): Promise<LiveSession | undefined> {
      const row = await sessions.findByHash(hashToken(token));
      if (!row) return undefined;
      const at = now();
      if (at >= row.expiresAt || at - row.lastSeenAt >= idleMs) {
        await sessions.remove(row.id);
        return undefined;
      }
      if (at - row.lastSeenAt >= TOUCH_EVERY_MS) await sessions.touch(row.id, at);
      return {
        id: row.id,
        userId: row.userId,
        currentAccountId: row.currentAccountId,
        expiresAt: row.expiresAt,
      };
    },

    switchAccount: (sessionId: string, accountId: string) => sessions.setAccount(sessionId, accountId),
    /** Sign-out: this session's cookie stops working. */
    end: (sessionId: string) => sessions.remove(sessionId),
    /** After a password change: every other session of the user ends. */
    endOthers: (userId: string, keepId: string) => sessions.removeOfUser(userId, keepId),
    /** After an operator's reset: every session of the user ends. */
    endAll: (userId: string) => sessions.removeOfUser(userId, null),
    /** The write that ends a removed member's sessions in the account, for the members' transaction. */
    endInAccount: sessions.removeInAccount,
    /** Deletes expired rows (a background job may call it; reads refuse them anyway). */
    sweep: () => sessions.removeExpired(now()),
    maxAgeMs,
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
