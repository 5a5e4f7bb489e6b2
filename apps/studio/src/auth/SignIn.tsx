import { SignIn } from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { api, isApiError } from '../api/api';
import { useMessages } from '../i18n/i18n';
import { AuthCard } from '../layout/AuthLayout';
import { safeNext, storeSession } from '../session/session';
import { Button } from '../ui/Button';
import { Field, FormAlert, Input, formStyles, useContractForm, useSubmitFailure } from '../ui/form';
import { authMessages } from './messages';

const route = getRouteApi('/public/sign-in');

export function SignInScreen() {
  const t = useMessages(authMessages);
  const { next } = route.useSearch();
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useContractForm(SignIn, { defaultValues: { email: '', password: '' } });
  const { failure, fail, clear } = useSubmitFailure(form);
  const signIn = useMutation({
    mutationFn: (body: SignIn) => api(ROUTE_PATHS.auth.signIn, { body }),
    onSuccess: async (session) => {
      storeSession(queryClient, session);
      const back = safeNext(next);
      await (back ? router.navigate({ href: back }) : router.navigate({ to: '/' }));
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 401) {
        clear();
        form.setError('password', { type: 'server', message: t('wrongCredentials') });
        return;
      }
      fail(error);
    },
  });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <AuthCard title={t('signInTitle')} lead={t('signInLead')}>
      <form
        className={formStyles.form}
        noValidate
        onSubmit={(event) =>
          void form.handleSubmit((values) => {
            clear();
            signIn.mutate(values);
          })(event)
        }
      >
        <Field label={t('email')} error={errors.email}>
          <Input type="email" autoComplete="username" autoFocus {...register('email')} />
        </Field>
        <Field label={t('password')} error={errors.password}>
          <Input type="password" autoComplete="current-password" {...register('password')} />
        </Field>
        <FormAlert error={failure} />
        <Button type="submit" variant="primary" full busy={signIn.isPending}>
          {t('signIn')}
        </Button>
      </form>
    </AuthCard>
  );
}
