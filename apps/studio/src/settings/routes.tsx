import { createRoute, redirect } from '@tanstack/react-router';
import { appRoute } from '../routing/routes';
import { AccountScreen } from './Account';
import { ApiKeysScreen } from './ApiKeys';
import { DomainsScreen } from './Domains';
import { MembersScreen } from './Members';
import { SettingsLayout } from './SettingsLayout';

const settingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'settings',
  component: SettingsLayout,
});

const settingsIndexRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/settings/account', replace: true });
  },
});

const accountRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: 'account',
  component: AccountScreen,
});

const membersRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: 'members',
  component: MembersScreen,
});

const apiKeysRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: 'api-keys',
  component: ApiKeysScreen,
});

const domainsRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: 'domains',
  component: DomainsScreen,
});

export const settingsRoutes = settingsRoute.addChildren([
  settingsIndexRoute,
  accountRoute,
  membersRoute,
  apiKeysRoute,
  domainsRoute,
]);
