import { Link, Outlet } from '@tanstack/react-router';
import { useMessages } from '../i18n/i18n';
import { useSession } from '../session/session';
import { useRoleName } from '../ui/failure';
import { formStyles } from '../ui/form';
import { PageHeader } from '../ui/surface';
import { settingsMessages } from './messages';
import styles from './settings.module.css';

/** Settings: a tab per section, each its own address. */
export function SettingsLayout() {
  const t = useMessages(settingsMessages);
  const active = { 'aria-current': 'page' as const };
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <nav aria-label={t('sections')} className={styles.tabs}>
        <Link to="/settings/account" className={styles.tab} activeProps={active}>
          {t('account')}
        </Link>
        <Link to="/settings/members" className={styles.tab} activeProps={active}>
          {t('members')}
        </Link>
        <Link to="/settings/api-keys" className={styles.tab} activeProps={active}>
          {t('apiKeys')}
        </Link>
        <Link to="/settings/domains" className={styles.tab} activeProps={active}>
          {t('domains')}
        </Link>
      </nav>
      <Outlet />
    </>
  );
}

/** For a member whose role may read but not change a section. */
export function OwnerOnlyNote() {
  const t = useMessages(settingsMessages);
  const roleName = useRoleName();
  const { role } = useSession();
  if (role === 'owner') return null;
  return (
    <p className={[formStyles.notice, styles.readOnly].join(' ')}>
      {t('ownerOnly', { role: roleName(role) })}
    </p>
  );
}
