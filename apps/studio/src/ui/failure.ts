import type { Role } from '@embudo/contracts';
import { useCallback } from 'react';
import { isApiError } from '../api/api';
import { useMessages } from '../i18n/i18n';
import { uiMessages } from './messages';

/** A role's name in the Studio's language. */
export function useRoleName(): (role: Role) => string {
  const t = useMessages(uiMessages);
  return useCallback(
    (role: Role) => t(role === 'owner' ? 'roleOwner' : role === 'editor' ? 'roleEditor' : 'roleViewer'),
    [t],
  );
}

/** What to tell the owner about a failed call: a sentence for its kind, the server's own for the rest. */
export function useFailureMessage(): (error: unknown) => string {
  const t = useMessages(uiMessages);
  const roleName = useRoleName();
  return useCallback(
    (error: unknown) => {
      if (!isApiError(error)) return t('server');
      switch (error.kind) {
        case 'network':
          return t('network');
        case 'server':
          return t('server');
        case 'role':
          return error.requiredRole ? t('role', { role: roleName(error.requiredRole) }) : t('forbidden');
        case 'forbidden':
          return t('forbidden');
        case 'notFound':
          return t('notFound');
        case 'rateLimited':
          return t('rateLimited');
        case 'unauthorized':
          return t('unauthorized');
        case 'validation':
          return error.issues.length > 0
            ? error.issues
                .map((issue) => (issue.field ? `${issue.field}: ${issue.message}` : issue.message))
                .join(' · ')
            : error.message;
        case 'conflict':
        case 'other':
          return error.message;
      }
    },
    [t, roleName],
  );
}
