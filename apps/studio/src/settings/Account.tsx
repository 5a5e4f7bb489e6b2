import {
  AccountSettings,
  AccountUpdate,
  Color,
  TimeZone,
  type AccountAnswer,
  type AccountUpdateInput,
} from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../api/api';
import { useMessages } from '../i18n/i18n';
import { timeZoneLabel, timeZoneNames } from '../i18n/time-zone';
import { useCan } from '../session/session';
import { Button } from '../ui/Button';
import {
  ColorField,
  Field,
  FormAlert,
  Input,
  Select,
  formStyles,
  useContractForm,
  useSubmitFailure,
} from '../ui/form';
import { ErrorState, LoadingState } from '../ui/states';
import { Card } from '../ui/surface';
import { useToast } from '../ui/toast';
import { settingsMessages } from './messages';
import { OwnerOnlyNote } from './SettingsLayout';
import styles from './settings.module.css';

export const accountQuery = {
  queryKey: ['account'] as const,
  queryFn: () => api(ROUTE_PATHS.account.get, {}),
};

/** The form's values: an empty text is "none" (null for the server); names as the API's. */
const AccountForm = z.object({
  name: AccountUpdate.shape.name.unwrap(),
  settings: z.object({
    contactEmail: z.union([z.literal(''), AccountSettings.shape.contactEmail.unwrap().unwrap()]),
    whatsappLandingButtonBgColor: z.union([z.literal(''), Color]),
    timeZone: TimeZone,
  }),
});
type AccountForm = z.infer<typeof AccountForm>;

export function AccountScreen() {
  const account = useQuery(accountQuery);
  if (account.isPending) return <LoadingState />;
  if (account.isError) return <ErrorState error={account.error} onRetry={() => void account.refetch()} />;
  return <AccountDetails account={account.data} />;
}

function valuesOf(account: AccountAnswer): AccountForm {
  return {
    name: account.name,
    settings: {
      contactEmail: account.settings.contactEmail ?? '',
      whatsappLandingButtonBgColor: account.settings.whatsappLandingButtonBgColor ?? '',
      timeZone: account.settings.timeZone,
    },
  };
}

function AccountDetails({ account }: { account: AccountAnswer }) {
  const t = useMessages(settingsMessages);
  const canEdit = useCan('owner');
  const queryClient = useQueryClient();
  const notify = useToast();
  const form = useContractForm(AccountForm, { defaultValues: valuesOf(account) });
  const { failure, fail, clear } = useSubmitFailure(form);
  const save = useMutation({
    mutationFn: (body: AccountUpdateInput) => api(ROUTE_PATHS.account.update, { body }),
    onSuccess: (next) => {
      queryClient.setQueryData(accountQuery.queryKey, next);
      form.reset(valuesOf(next));
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
          save.mutate({
            name: values.name,
            settings: {
              contactEmail: values.settings.contactEmail === '' ? null : values.settings.contactEmail,
              whatsappLandingButtonBgColor:
                values.settings.whatsappLandingButtonBgColor === ''
                  ? null
                  : values.settings.whatsappLandingButtonBgColor,
              timeZone: values.settings.timeZone,
            },
          });
        })(event)
      }
    >
      <OwnerOnlyNote />
      <Card
        title={t('accountTitle')}
        description={t('accountDescription')}
        labelledBy="settings-account"
        {...(canEdit
          ? {
              footer: (
                <Button type="submit" variant="primary" busy={save.isPending} disabled={!isDirty}>
                  {t('save')}
                </Button>
              ),
            }
          : {})}
      >
        <fieldset disabled={!canEdit} className={styles.fieldset}>
          <div className={formStyles.form}>
            <div className={formStyles.row}>
              <Field label={t('accountName')} error={errors.name}>
                <Input autoComplete="organization" {...register('name')} />
              </Field>
              <Field label={t('slug')} hint={t('slugHint')}>
                <Input value={account.slug} readOnly />
              </Field>
            </div>
            <Field
              label={t('contactEmail')}
              optional={t('optional')}
              hint={t('contactEmailHint')}
              error={errors.settings?.contactEmail}
            >
              <Input type="email" autoComplete="email" {...register('settings.contactEmail')} />
            </Field>
            <Field label={t('timeZone')} hint={t('timeZoneHint')} error={errors.settings?.timeZone}>
              <Select defaultValue={account.settings.timeZone} {...register('settings.timeZone')}>
                {timeZoneNames(account.settings.timeZone).map((zone) => (
                  <option key={zone} value={zone}>
                    {timeZoneLabel(zone)}
                  </option>
                ))}
              </Select>
            </Field>
            <ColorField
              form={form}
              name="settings.whatsappLandingButtonBgColor"
              label={t('buttonColor')}
              pickerLabel={t('buttonColorPicker')}
              optional={t('optional')}
              hint={t('buttonColorHint')}
              error={errors.settings?.whatsappLandingButtonBgColor}
              fallback="#25d366"
              placeholder="#25d366"
            />
            <FormAlert error={failure} />
          </div>
        </fieldset>
      </Card>
    </form>
  );
}
