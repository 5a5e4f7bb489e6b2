import { FirstRunSetup } from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { api, isApiError } from '../api/api';
import { useLanguage, useMessages } from '../i18n/i18n';
import { browserTimeZone } from '../i18n/time-zone';
import { AuthCard } from '../layout/AuthLayout';
import { setupStateQuery, storeSession } from '../session/session';
import { Button, buttonClass } from '../ui/Button';
import { Field, FormAlert, Input, formStyles, useContractForm, useSubmitFailure } from '../ui/form';
import { FullPageLoading } from '../ui/states';
import { authMessages } from './messages';
import styles from './auth.module.css';

/** The first run: no user exists yet; this creates the first owner and their account. */
export function SetupScreen() {
  const t = useMessages(authMessages);
  const setup = useQuery(setupStateQuery);
  if (setup.isPending) return <FullPageLoading />;
  if (setup.data && !setup.data.needed)
    return (
      <AuthCard title={t('setupTitle')} lead={t('setupDone')}>
        <Link to="/sign-in" className={buttonClass('primary')}>
          {t('signIn')}
        </Link>
      </AuthCard>
    );
  return <SetupForm />;
}

function SetupForm() {
  const t = useMessages(authMessages);
  const { language } = useLanguage();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useContractForm(FirstRunSetup, {
    defaultValues: {
      name: '',
      email: '',
      password: '',
      accountName: '',
      accountSlug: '',
      language,
      timeZone: browserTimeZone(),
    },
  });
  const { failure, fail, clear } = useSubmitFailure(form, {
    conflict: { field: 'accountSlug', message: t('slugTaken') },
  });
  const create = useMutation({
    mutationFn: (body: FirstRunSetup) => api(ROUTE_PATHS.auth.setup, { body }),
    onSuccess: async (session) => {
      storeSession(queryClient, session);
      queryClient.setQueryData(setupStateQuery.queryKey, { needed: false });
      await navigate({ to: '/' });
    },
    onError: (error) => {
      // Someone finished the first run meanwhile: this screen says so, with the way to sign in.
      if (isApiError(error) && error.status === 409 && /first run/i.test(error.message)) {
        queryClient.setQueryData(setupStateQuery.queryKey, { needed: false });
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
    <AuthCard title={t('setupTitle')} lead={t('setupLead')} wide>
      <form
        className={formStyles.form}
        noValidate
        onSubmit={(event) =>
          void form.handleSubmit((values) => {
            clear();
            create.mutate({ ...values, language });
          })(event)
        }
      >
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>{t('you')}</legend>
          <Field label={t('yourName')} error={errors.name}>
            <Input autoComplete="name" autoFocus {...register('name')} />
          </Field>
          <Field label={t('email')} error={errors.email}>
            <Input type="email" autoComplete="email" {...register('email')} />
          </Field>
          <Field label={t('newPassword')} hint={t('passwordHint')} error={errors.password}>
            <Input type="password" autoComplete="new-password" {...register('password')} />
          </Field>
        </fieldset>
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>{t('theAccount')}</legend>
          <Field label={t('accountName')} hint={t('accountNameHint')} error={errors.accountName}>
            <Input autoComplete="organization" {...register('accountName')} />
          </Field>
          <Field label={t('accountSlug')} hint={t('accountSlugHint')} error={errors.accountSlug}>
            <Input autoCapitalize="none" spellCheck={false} {...register('accountSlug')} />
          </Field>
        </fieldset>
        <FormAlert error={failure} />
        <Button type="submit" variant="primary" full busy={create.isPending}>
          {t('createAccount')}
        </Button>
      </form>
    </AuthCard>
  );
}
