import * as Menu from '@radix-ui/react-dropdown-menu';
import type { StudioSession } from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../api/api';
import { LANGUAGE_NAMES, LANGUAGES, useLanguage, useMessages, type Language } from '../i18n/i18n';
import { SESSION_KEY, storeSession, useSession } from '../session/session';
import { ModalDialog } from '../ui/dialog';
import { useFailureMessage, useRoleName } from '../ui/failure';
import { useToast } from '../ui/toast';
import styles from './AppShell.module.css';
import { CheckIcon, ChevronIcon, CloseIcon, FunnelIcon, MenuIcon, SettingsIcon } from './icons';
import { layoutMessages } from './messages';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('') || '?';

function Brand() {
  const t = useMessages(layoutMessages);
  return (
    <Link to="/" className={styles.brand}>
      <span className={styles.logo} aria-hidden="true">
        E
      </span>
      {t('studio')}
    </Link>
  );
}

function Navigation({ onNavigate }: { onNavigate?: () => void }) {
  const t = useMessages(layoutMessages);
  const active = { 'aria-current': 'page' as const };
  return (
    <nav aria-label={t('mainNav')} className={styles.nav}>
      <Link to="/funnels" className={styles.navLink} activeProps={active} onClick={onNavigate}>
        <FunnelIcon className={styles.navIcon} />
        {t('funnels')}
      </Link>
      <Link to="/settings" className={styles.navLink} activeProps={active} onClick={onNavigate}>
        <SettingsIcon className={styles.navIcon} />
        {t('settings')}
      </Link>
    </nav>
  );
}

/** The account being worked in; with several, a menu to switch. */
function AccountSwitcher({ session }: { session: StudioSession }) {
  const t = useMessages(layoutMessages);
  const roleName = useRoleName();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useToast();
  const failure = useFailureMessage();
  const current = session.memberships.find((m) => m.account.id === session.currentAccountId);
  const switchAccount = useMutation({
    mutationFn: (accountId: string) => api(ROUTE_PATHS.auth.switchAccount, { body: { accountId } }),
    onSuccess: async (next) => {
      // Everything cached belonged to the other account.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
      storeSession(queryClient, next);
      const account = next.memberships.find((m) => m.account.id === next.currentAccountId);
      notify(t('switched', { account: account?.account.name ?? '' }));
      await navigate({ to: '/' });
    },
    onError: (error) => {
      notify(failure(error), 'error');
    },
  });
  const label = (
    <>
      <span className={[styles.avatar, styles.accountAvatar].join(' ')} aria-hidden="true">
        {initials(current?.account.name ?? '')}
      </span>
      <span className={styles.who}>
        <span className={styles.whoName}>{current?.account.name}</span>
        <span className={styles.whoMeta}>{roleName(session.role)}</span>
      </span>
    </>
  );
  if (session.memberships.length < 2)
    return (
      <div className={[styles.menuTrigger, styles.accountTrigger].join(' ')}>
        <span className="visually-hidden">{t('account')}: </span>
        {label}
      </div>
    );
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger className={[styles.menuTrigger, styles.accountTrigger].join(' ')}>
        <span className="visually-hidden">{t('switchAccount')}: </span>
        {label}
        <ChevronIcon className={styles.chevron} />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className={styles.menu} align="start" sideOffset={4}>
          <Menu.Label className={styles.menuLabel}>{t('switchAccount')}</Menu.Label>
          <Menu.RadioGroup
            value={session.currentAccountId}
            onValueChange={(accountId) => {
              if (accountId !== session.currentAccountId) switchAccount.mutate(accountId);
            }}
          >
            {session.memberships.map((membership) => (
              <Menu.RadioItem
                key={membership.account.id}
                value={membership.account.id}
                className={styles.menuItem}
              >
                <span className={styles.who}>
                  <span className={styles.whoName}>{membership.account.name}</span>
                  <span className={styles.whoMeta}>{roleName(membership.role)}</span>
                </span>
                <Menu.ItemIndicator className={styles.indicator}>
                  <CheckIcon />
                </Menu.ItemIndicator>
              </Menu.RadioItem>
            ))}
          </Menu.RadioGroup>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

function UserMenu({ session, onNavigate }: { session: StudioSession; onNavigate?: () => void }) {
  const t = useMessages(layoutMessages);
  const { language, setLanguage } = useLanguage();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useToast();
  const failure = useFailureMessage();
  const signOut = useMutation({
    mutationFn: () => api(ROUTE_PATHS.auth.signOut, {}),
    onSuccess: async () => {
      queryClient.clear();
      storeSession(queryClient, null);
      await navigate({ to: '/sign-in' });
    },
    onError: (error) => {
      notify(failure(error), 'error');
    },
  });
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger className={styles.menuTrigger}>
        <span className="visually-hidden">{t('userMenu')}: </span>
        <span className={styles.avatar} aria-hidden="true">
          {initials(session.user.name)}
        </span>
        <span className={styles.who}>
          <span className={styles.whoName}>{session.user.name}</span>
          <span className={styles.whoMeta}>{session.user.email}</span>
        </span>
        <ChevronIcon className={styles.chevron} />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className={styles.menu} side="top" align="start" sideOffset={4}>
          <Menu.Item asChild className={styles.menuItem}>
            <Link to="/profile" onClick={onNavigate}>
              {t('profile')}
            </Link>
          </Menu.Item>
          <Menu.Separator className={styles.separator} />
          <Menu.Label className={styles.menuLabel}>{t('language')}</Menu.Label>
          <Menu.RadioGroup
            value={language}
            onValueChange={(value) => {
              setLanguage(value as Language);
            }}
          >
            {LANGUAGES.map((code) => (
              <Menu.RadioItem key={code} value={code} className={styles.menuItem} lang={code}>
                {LANGUAGE_NAMES[code]}
                <Menu.ItemIndicator className={styles.indicator}>
                  <CheckIcon />
                </Menu.ItemIndicator>
              </Menu.RadioItem>
            ))}
          </Menu.RadioGroup>
          <Menu.Separator className={styles.separator} />
          <Menu.Item
            className={styles.menuItem}
            onSelect={() => {
              signOut.mutate();
            }}
          >
            {t('signOut')}
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

function Panel({
  session,
  onNavigate,
  brand = false,
}: {
  session: StudioSession;
  onNavigate?: () => void;
  brand?: boolean;
}) {
  return (
    <div className={styles.panel}>
      {brand ? <Brand /> : null}
      <AccountSwitcher session={session} />
      <Navigation {...(onNavigate ? { onNavigate } : {})} />
      <div className={styles.spacer} />
      <UserMenu session={session} {...(onNavigate ? { onNavigate } : {})} />
    </div>
  );
}

/** The signed-in Studio: a sidebar at desktop widths, a top bar with a drawer on a phone. */
export function AppShell() {
  const t = useMessages(layoutMessages);
  const session = useSession();
  const [drawerOpen, setDrawerOpen] = useState(false);
  return (
    <div className={styles.shell}>
      <a href="#content" className={styles.skip}>
        {t('skipToContent')}
      </a>
      <aside className={styles.sidebar}>
        <Panel session={session} brand />
      </aside>
      <header className={styles.topbar}>
        <Brand />
        <button
          type="button"
          className={styles.iconButton}
          aria-label={t('openMenu')}
          aria-expanded={drawerOpen}
          onClick={() => {
            setDrawerOpen(true);
          }}
        >
          <MenuIcon />
        </button>
        <ModalDialog
          open={drawerOpen}
          onOpenChange={setDrawerOpen}
          className={styles.drawer}
          labelledBy="studio-drawer-title"
        >
          <div className={styles.drawerHead}>
            <h2 className={styles.brand} id="studio-drawer-title">
              {t('menu')}
            </h2>
            <button
              type="button"
              className={styles.iconButton}
              aria-label={t('closeMenu')}
              onClick={() => {
                setDrawerOpen(false);
              }}
            >
              <CloseIcon />
            </button>
          </div>
          <Panel
            session={session}
            onNavigate={() => {
              setDrawerOpen(false);
            }}
          />
        </ModalDialog>
      </header>
      <main id="content" className={styles.main} tabIndex={-1}>
        <div className={styles.container}>
          <Outlet />
        </div>
      </main>
    </div>
  );
}
