import { InvitationAccept, type InvitationPreview, type StudioSession } from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { api, isApiError } from '../api/api';
import { useFormatDate, useMessages } from '../i18n/i18n';
import { AuthCard } from '../layout/AuthLayout';
import { sessionQuery, storeSession } from '../session/session';
import { Button } from '../ui/Button';
import { useRoleName } from '../ui/failure';
import { Field, FormAlert, Input, formStyles, useContractForm, useSubmitFailure } from '../ui/form';
import { ErrorState, FullPageLoading } from '../ui/states';
import { useToast } from '../ui/toast';
import styles from './auth.module.css';
import { authMessages } from './messages';

const route = getRouteApi('/public/invite/$token');
const NewMember = InvitationAccept.unwrap().unwrap();
type NewMember = typeof NewMember._zod.output;

/** Opening an invitation link: see what it offers, then join (with one's user, or a new one). */
export function InviteScreen() {
  const t = useMessages(authMessages);
  const { token } = route.useParams();
  const preview = useQuery({
    queryKey: ['auth', 'invitation', token],
    queryFn: () => api(ROUTE_PATHS.auth.invitation, { params: { token } }),
    retry: false,
  });
  const session = useQuery(sessionQuery);
  if (preview.isPending || session.isPending) return <FullPageLoading />;
  if (preview.isError) {
    if (isApiError(preview.error) && (preview.error.status === 404 || preview.error.status === 400))
      return (
        <AuthCard title={t('inviteGone')}>
          <p className={styles.muted}>{t('inviteGoneText')}</p>
        </AuthCard>
      );
    return (
      <AuthCard title={t('inviteGone')}>
        <ErrorState error={preview.error} onRetry={() => void preview.refetch()} />
      </AuthCard>
    );
  }
  return <InviteCard token={token} preview={preview.data} session={session.data ?? null} />;
}

function InviteCard({
  token,
  preview,
  session,
}: {
  token: string;
  preview: InvitationPreview;
  session: StudioSession | null;
}) {
  const t = useMessages(authMessages);
  const roleName = useRoleName();
  const formatDate = useFormatDate();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useToast();
  const form = useContractForm(NewMember, {
    defaultValues: { name: '', email: preview.email ?? '', password: '' },
  });
  const { failure, fail, clear } = useSubmitFailure(form);
  const accept = useMutation({
    mutationFn: (body: NewMember | undefined) =>
      api(ROUTE_PATHS.auth.acceptInvitation, { params: { token }, body }),
    onSuccess: async (next) => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
      storeSession(queryClient, next);
      notify(t('joined', { account: preview.accountName }));
      await navigate({ to: '/' });
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 409) {
        form.setError('email', { type: 'server', message: t('emailTaken') });
        return;
      }
      fail(error);
    },
  });
  const title = t('inviteTitle', { account: preview.accountName });
  const lead = t('inviteLead', { role: roleName(preview.role), date: formatDate(preview.expiresAt) });
  if (session)
    return (
      <AuthCard title={title} lead={lead}>
        <p className={styles.muted}>{t('signedInAs', { email: session.user.email })}</p>
        <FormAlert error={failure} />
        <Button
          variant="primary"
          full
          busy={accept.isPending}
          onClick={() => {
            clear();
            // A signed-in user joins with their own user: no body.
            accept.mutate(undefined);
          }}
        >
          {t('acceptAs', { name: session.user.name })}
        </Button>
      </AuthCard>
    );
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <AuthCard title={title} lead={lead}>
      <form
        className={formStyles.form}
        noValidate
        onSubmit={(event) =>
          void form.handleSubmit((values) => {
            clear();
            accept.mutate(values);
          })(event)
        }
      >
        <p className={styles.muted}>{t('orCreate')}</p>
        <Field label={t('yourName')} error={errors.name}>
          <Input autoComplete="name" {...register('name')} />
        </Field>
        <Field label={t('email')} error={errors.email}>
          <Input type="email" autoComplete="email" {...register('email')} />
        </Field>
        <Field label={t('newPassword')} hint={t('passwordHint')} error={errors.password}>
          <Input type="password" autoComplete="new-password" {...register('password')} />
        </Field>
        <FormAlert error={failure} />
        <Button type="submit" variant="primary" full busy={accept.isPending}>
          {t('joinAccount')}
        </Button>
        <p className={styles.row}>
          {t('haveUser')}
          <Link to="/sign-in" search={{ next: `/invite/${token}` }}>
            {t('signInFirst')}
          </Link>
        </p>
      </form>
    </AuthCard>
  );
}
