import { ROUTES, type StudioSession } from '@embudo/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { registerRoutes } from '../../http/contract-routes';
import { attemptLimiter } from '../../http/rate-limit';
import { unauthorized } from '../../lib/http-errors';
import { hashToken } from '../../lib/tokens';
import { requireStudioOrigin, sessionToken } from '../auth/owner-auth';
import { sessionCookie } from './cookie';
import type { LiveSession, SessionService } from './session.service';
import type { StudioAuthService } from './studio-auth.service';

export interface StudioAuthRouteOptions {
  studioAuth: StudioAuthService;
  sessions: Pick<SessionService, 'resolve' | 'maxAgeMs'>;
  config: Pick<Config, 'publicUrl' | 'redisUrl' | 'studio'>;
}

/**
 * The Studio's own routes under /api/auth (decision 21). A hook reads the session cookie, if any, and
 * refuses any write whose Origin is not the Studio's (403): sign-in included, so another site cannot
 * sign a browser into an account of its choosing.
 */
export const studioAuthRoutes: FastifyPluginAsyncZod<StudioAuthRouteOptions> = async (
  app,
  { studioAuth, sessions, config },
) => {
  const studioOrigin = new URL(config.publicUrl).origin;
  const secure = studioOrigin.startsWith('https:');
  const maxAgeSeconds = sessions.maxAgeMs / 1000;
  app.decorateRequest('studioSession', null);
  app.addHook('onRequest', async (request) => {
    requireStudioOrigin(request, studioOrigin);
    const token = sessionToken(request);
    request.studioSession = token === undefined ? null : ((await sessions.resolve(token)) ?? null);
  });

  const { signInAttempts: max, signInWindowMs: windowMs } = config.studio;
  const minutes = String(Math.round(windowMs / 60_000));
  const limitSignIn = await attemptLimiter(app, config, [
    {
      name: 'sign-in-address',
      max,
      windowMs,
      keyOf: (request) => request.ip,
      refusal: (seconds) =>
        `too many sign-in attempts from this address: at most ${String(max)} in ${minutes} minutes ` +
        `(SIGN_IN_ATTEMPTS); try again in ${String(seconds)} s`,
    },
    {
      name: 'sign-in-email',
      max,
      windowMs,
      keyOf: (request) => {
        const body = request.body as { email?: unknown } | undefined;
        return typeof body?.email === 'string' ? hashToken(body.email) : undefined;
      },
      refusal: (seconds) =>
        `too many sign-in attempts for this e-mail: at most ${String(max)} in ${minutes} minutes ` +
        `(SIGN_IN_ATTEMPTS); try again in ${String(seconds)} s`,
    },
  ]);

  const signedIn = (reply: FastifyReply, token: string, status: number, answer: StudioSession) =>
    reply.status(status).header('set-cookie', sessionCookie(token, { maxAgeSeconds, secure })).send(answer);
  const signedOut = (reply: FastifyReply) =>
    reply.header('set-cookie', sessionCookie('', { maxAgeSeconds: 0, secure }));
  const session = (request: FastifyRequest): LiveSession => {
    if (!request.studioSession) throw unauthorized('not signed in to the Studio (or the session has ended)');
    return request.studioSession;
  };

  registerRoutes(app, ROUTES.auth, {
    setupState: async () => ({ needed: await studioAuth.setupNeeded() }),
    setup: async (req, reply) => {
      const { token, answer } = await studioAuth.setup(req.body);
      return signedIn(reply, token, 201, answer);
    },
    signIn: {
      preHandler: limitSignIn,
      handler: async (req, reply) => {
        const { token, answer } = await studioAuth.signIn(req.body);
        return signedIn(reply, token, 200, answer);
      },
    },
    signOut: async (req, reply) => {
      if (req.studioSession) await studioAuth.signOut(req.studioSession);
      return signedOut(reply).status(204).send();
    },
    session: (req) => studioAuth.session(session(req)),
    switchAccount: (req) => studioAuth.switchAccount(session(req), req.body.accountId),
    updateProfile: (req) => studioAuth.updateProfile(session(req), req.body),
    changePassword: {
      // A stolen session must not be a way to guess the password: the same limit as signing in.
      preHandler: limitSignIn,
      handler: async (req, reply) => {
        await studioAuth.changePassword(session(req), req.body);
        return reply.status(204).send();
      },
    },
    invitation: async (req) => studioAuth.preview(req.params.token),
    acceptInvitation: async (req, reply) => {
      const { answer, token } = await studioAuth.acceptInvitation(
        req.params.token,
        req.studioSession ?? undefined,
        req.body,
      );
      return token === undefined ? answer : signedIn(reply, token, 200, answer);
    },
  });
  return Promise.resolve();
};
