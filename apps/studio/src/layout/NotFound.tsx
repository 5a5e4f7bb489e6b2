import { Link } from '@tanstack/react-router';
import { useMessages } from '../i18n/i18n';
import { buttonClass } from '../ui/Button';
import { EmptyState } from '../ui/states';
import { layoutMessages } from './messages';

export function NotFound() {
  const t = useMessages(layoutMessages);
  return (
    <EmptyState
      icon="?"
      title={t('notFoundTitle')}
      text={t('notFoundText')}
      action={
        <Link to="/" className={buttonClass('primary')}>
          {t('goHome')}
        </Link>
      }
    />
  );
}
