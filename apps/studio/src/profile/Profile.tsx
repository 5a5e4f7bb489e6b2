import { Language, PasswordChange, ProfileUpdate } from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, isApiError } from '../api/api';
import { LANGUAGE_NAMES, LANGUAGES, useMessages } from '../i18n/i18n';
import { storeSession, useSession } from '../session/session';
import { Button } from '../ui/Button';
import { Field, FormAlert, Input, Select, formStyles, useContractForm, useSubmitFailure } from '../ui/form';
import { Card, PageHeader, Stack } from '../ui/surface';
import { useToast } from '../ui/toast';
import { profileMessages } from './messages';

export function ProfileScreen() {
  const t = useMessages(profileMessages);
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Stack>
        <DetailsForm />
        <PasswordForm />
      </Stack>
    </>
  );
}

/** The profile as the form holds it: "" for the browser's language (null for the server). */
const Details = z.object({
  name: ProfileUpdate.shape.name.unwrap(),
  language: z.union([z.literal(''), Language]),
});

function DetailsForm() {
  const t = useMessages(profileMessages);
  const session = useSession();
  const queryClient = useQueryClient();
  const notify = useToast();
  const form = useContractForm(Details, {
    defaultValues: { name: session.user.name, language: session.user.language ?? '' },
  });
  const { failure, fail, clear } = useSubmitFailure(form);
  const save = useMutation({
    mutationFn: (body: ProfileUpdate) => api(ROUTE_PATHS.auth.updateProfile, { body }),
    onSuccess: (next) => {
      storeSession(queryClient, next);
      form.reset({ name: next.user.name, language: next.user.language ?? '' });
      notify(t('saved'));
    },
    onError: fail,
  });
  const {
    register,
    formState: { errors, isDirty },
  } = form;
  return (
    <form
      noValidate
      onSubmit={(event) =>
        void form.handleSubmit((values) => {
          clear();
          save.mutate({ name: values.name, language: values.language === '' ? null : values.language });
        })(event)
      }
    >
      <Card
        title={t('details')}
        labelledBy="profile-details"
        footer={
          <Button type="submit" variant="primary" busy={save.isPending} disabled={!isDirty}>
            {t('save')}
          </Button>
        }
      >
        <div className={formStyles.form}>
          <div className={formStyles.row}>
            <Field label={t('name')} error={errors.name}>
              <Input autoComplete="name" {...register('name')} />
            </Field>
            <Field label={t('email')} hint={t('emailHint')}>
              <Input type="email" value={session.user.email} readOnly />
            </Field>
          </div>
          <div className={formStyles.row}>
            <Field label={t('language')} error={errors.language}>
              <Select {...register('language')}>
                <option value="">{t('browserLanguage')}</option>
                {LANGUAGES.map((code) => (
                  <option key={code} value={code} lang={code}>
                    {LANGUAGE_NAMES[code]}
                  </option>
                ))}
              </Select>
            </Field>
            <div />
          </div>
          <FormAlert error={failure} />
        </div>
      </Card>
    </form>
  );
}

function PasswordForm() {
  const t = useMessages(profileMessages);
  const notify = useToast();
  const form = useContractForm(PasswordChange, { defaultValues: { currentPassword: '', newPassword: '' } });
  const { failure, fail, clear } = useSubmitFailure(form);
  const change = useMutation({
    mutationFn: (body: PasswordChange) => api(ROUTE_PATHS.auth.changePassword, { body }),
    onSuccess: () => {
      form.reset();
      notify(t('passwordChanged'));
    },
    onError: (error) => {
      // A wrong current password: said on its field (the session itself is still good).
      if (isApiError(error) && (error.status === 401 || error.status === 403) && error.issues.length === 0) {
        form.setError('currentPassword', { type: 'server', message: t('wrongPassword') });
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
    <form
      noValidate
      onSubmit={(event) =>
        void form.handleSubmit((values) => {
          clear();
          change.mutate(values);
        })(event)
      }
    >
      <Card
        title={t('passwordTitle')}
        description={t('passwordDescription')}
        labelledBy="profile-password"
        footer={
          <Button type="submit" variant="primary" busy={change.isPending}>
            {t('changePassword')}
          </Button>
        }
      >
        <div className={formStyles.form}>
          <div className={formStyles.row}>
            <Field label={t('currentPassword')} error={errors.currentPassword}>
              <Input type="password" autoComplete="current-password" {...register('currentPassword')} />
            </Field>
            <Field label={t('newPassword')} hint={t('passwordHint')} error={errors.newPassword}>
              <Input type="password" autoComplete="new-password" {...register('newPassword')} />
            </Field>
          </div>
          <FormAlert error={failure} />
        </div>
      </Card>
    </form>
  );
}
