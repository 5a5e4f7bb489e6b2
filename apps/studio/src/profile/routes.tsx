import { createRoute } from '@tanstack/react-router';
import { appRoute } from '../routing/routes';
import { ProfileScreen } from './Profile';

export const profileRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'profile',
  component: ProfileScreen,
});
