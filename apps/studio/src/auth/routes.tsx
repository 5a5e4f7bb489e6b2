import { createRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { publicRoute } from '../routing/routes';
import { sessionQuery } from '../session/session';
import { InviteScreen } from './Invite';
import { SetupScreen } from './Setup';
import { SignInScreen } from './SignIn';

export const signInRoute = createRoute({
  getParentRoute: () => publicRoute,
  path: 'sign-in',
  // Where to return after signing in: a path of the Studio (checked again before use).
  validateSearch: z.object({ next: z.string().max(2000).optional().catch(undefined) }),
  // Someone already signed in has nothing to do here.
  beforeLoad: async ({ context }) => {
    const session = await context.queryClient.query({ ...sessionQuery, staleTime: 60_000 });
    if (session) throw redirect({ to: '/', replace: true });
  },
  component: SignInScreen,
});

export const setupRoute = createRoute({
  getParentRoute: () => publicRoute,
  path: 'setup',
  component: SetupScreen,
});

export const inviteRoute = createRoute({
  getParentRoute: () => publicRoute,
  path: 'invite/$token',
  component: InviteScreen,
});

export const authRoutes = [signInRoute, setupRoute, inviteRoute] as const;
