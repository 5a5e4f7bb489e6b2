import {
  ExpiredPage,
  FakeUserRange,
  FomoMessage,
  FomoSettings,
  FunnelFields,
  HttpUrl,
  Language,
  PixelSettingsInput,
  TypeFunnel,
  type Funnel,
  type FunnelUpdate,
} from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useFieldArray } from 'react-hook-form';
import { z } from 'zod';
import { api } from '../api/api';
import { LANGUAGE_NAMES, LANGUAGES, useMessages } from '../i18n/i18n';
import { useCan } from '../session/session';
import { Badge, Card, Stack } from '../ui/surface';
import { Button } from '../ui/Button';
import { Field, FormAlert, Input, Select, formStyles, useContractForm, useSubmitFailure } from '../ui/form';
import { ErrorState, LoadingState } from '../ui/states';
import { useToast } from '../ui/toast';
import { Check, LegalNote } from './Check';
import { funnelKeys, funnelQuery } from './data';
import { FunnelHeader } from '../funnel-frame/FunnelHeader';
import styles from './funnels.module.css';
import { funnelSettingsMessages } from './settings-messages';

/** A text field that may stay empty: '' is sent as null. */
const orEmpty = <S extends z.ZodType<string, string>>(schema: S) => z.union([z.literal(''), schema]);

const HOURS_MAX = 24 * 365;

/**
 * The form's values: the contracts' field schemas, with a text for each nullable field and the
 * deadline as the three controls the owner sees.
 */
const SettingsForm = z.strictObject({
  name: FunnelFields.name,
  typeFunnel: TypeFunnel,
  language: Language,
  deadline: z
    .strictObject({ mode: z.enum(['none', 'fixed', 'afterLeadCreated']), at: z.string(), hours: z.number() })
    .superRefine((deadline, ctx) => {
      if (deadline.mode === 'fixed' && Number.isNaN(Date.parse(deadline.at)))
        ctx.addIssue({ code: 'invalid_type', expected: 'string', input: '', path: ['at'] });
      if (
        deadline.mode === 'afterLeadCreated' &&
        !(Number.isInteger(deadline.hours) && deadline.hours >= 1 && deadline.hours <= HOURS_MAX)
      )
        ctx.addIssue({
          code: 'too_small',
          origin: 'number',
          minimum: 1,
          inclusive: true,
          input: deadline.hours,
          path: ['hours'],
          message: `1 – ${HOURS_MAX}`,
        });
    }),
  isDeadlineExceptionOn: z.boolean(),
  isPreLaunch: z.boolean(),
  isFakeUserOnlineOn: z.boolean(),
  fakeUserRange: FakeUserRange,
  isFomoOn: z.boolean(),
  fomo: FomoSettings.extend({
    messages: z
      .array(FomoMessage.extend({ countryCode: orEmpty(FomoMessage.shape.countryCode.unwrap()) }))
      .max(200),
  }),
  expiredPage: ExpiredPage.extend({ bgImageUrl: orEmpty(HttpUrl) }),
  pixel: z.strictObject({
    pixelId: orEmpty(PixelSettingsInput.shape.pixelId.unwrap()),
    testEventCode: PixelSettingsInput.shape.testEventCode.unwrap(),
    accessToken: orEmpty(PixelSettingsInput.shape.accessToken.unwrap()),
    clearToken: z.boolean(),
  }),
});
type SettingsForm = z.infer<typeof SettingsForm>;

/** An ISO date-time as a datetime-local control shows it, in the browser's time zone. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function valuesOf(funnel: Funnel): SettingsForm {
  return {
    name: funnel.name,
    typeFunnel: funnel.typeFunnel,
    language: funnel.language,
    deadline: {
      mode: funnel.deadline.mode,
      at: funnel.deadline.mode === 'fixed' ? toLocalInput(funnel.deadline.at) : '',
      hours: funnel.deadline.mode === 'afterLeadCreated' ? funnel.deadline.hours : 48,
    },
    isDeadlineExceptionOn: funnel.isDeadlineExceptionOn,
    isPreLaunch: funnel.isPreLaunch,
    isFakeUserOnlineOn: funnel.isFakeUserOnlineOn,
    fakeUserRange: funnel.fakeUserRange,
    isFomoOn: funnel.isFomoOn,
    fomo: {
      ...funnel.fomo,
      messages: funnel.fomo.messages.map((message) => ({
        ...message,
        countryCode: message.countryCode ?? '',
      })),
    },
    expiredPage: { ...funnel.expiredPage, bgImageUrl: funnel.expiredPage.bgImageUrl ?? '' },
    pixel: {
      pixelId: funnel.pixel.pixelId ?? '',
      testEventCode: funnel.pixel.testEventCode ?? '',
      accessToken: '',
      clearToken: false,
    },
  };
}

/** What the form sends: the update of every field, the pixel only from an owner. */
export function bodyOf(values: SettingsForm, withPixel: boolean): FunnelUpdate {
  const { deadline, pixel, fomo, expiredPage, ...rest } = values;
  return {
    ...rest,
    deadline:
      deadline.mode === 'fixed'
        ? { mode: 'fixed', at: new Date(deadline.at).toISOString() }
        : deadline.mode === 'afterLeadCreated'
          ? { mode: 'afterLeadCreated', hours: deadline.hours }
          : { mode: 'none' },
    fomo: {
      ...fomo,
      messages: fomo.messages.map((message) => ({
        ...message,
        countryCode: message.countryCode === '' ? null : message.countryCode,
      })),
    },
    expiredPage: {
      ...expiredPage,
      bgImageUrl: expiredPage.bgImageUrl === '' ? null : expiredPage.bgImageUrl,
    },
    ...(withPixel
      ? {
          pixel: {
            pixelId: pixel.pixelId === '' ? null : pixel.pixelId,
            testEventCode: pixel.testEventCode === '' ? null : pixel.testEventCode,
            ...(pixel.clearToken
              ? { accessToken: null }
              : pixel.accessToken !== ''
                ? { accessToken: pixel.accessToken }
                : {}),
          },
        }
      : {}),
  };
}

export function FunnelSettingsScreen({ funnelId }: { funnelId: string }) {
  const t = useMessages(funnelSettingsMessages);
  const funnel = useQuery(funnelQuery(funnelId));
  return (
    <>
      <FunnelHeader funnelId={funnelId} description={t('description')} />
      {funnel.isPending ? (
        <Card>
          <LoadingState />
        </Card>
      ) : funnel.isError ? (
        <Card>
          <ErrorState error={funnel.error} onRetry={() => void funnel.refetch()} />
        </Card>
      ) : (
        <SettingsFormView funnel={funnel.data} />
      )}
    </>
  );
}

function SettingsFormView({ funnel }: { funnel: Funnel }) {
  const t = useMessages(funnelSettingsMessages);
  const canEdit = useCan('editor');
  const isOwner = useCan('owner');
  const notify = useToast();
  const queryClient = useQueryClient();
  const form = useContractForm(SettingsForm, { defaultValues: valuesOf(funnel) });
  const { failure, fail, clear } = useSubmitFailure(form);
  const messages = useFieldArray({ control: form.control, name: 'fomo.messages' });
  const save = useMutation({
    mutationFn: (body: FunnelUpdate) => api(ROUTE_PATHS.funnels.update, { params: { id: funnel.id }, body }),
    onSuccess: async (next) => {
      queryClient.setQueryData(funnelKeys.one(next.id), next);
      form.reset(valuesOf(next));
      notify(t('saved'));
      await queryClient.invalidateQueries({ queryKey: funnelKeys.all, exact: true });
    },
    onError: fail,
  });
  const {
    register,
    watch,
    formState: { errors, isDirty },
  } = form;
  const mode = watch('deadline.mode');
  const fakeOn = watch('isFakeUserOnlineOn');
  const fomoOn = watch('isFomoOn');
  const source = watch('fomo.source');
  const clearToken = watch('pixel.clearToken');
  const rangeError = errors.fakeUserRange as { message?: string; root?: { message?: string } } | undefined;
  const number = { valueAsNumber: true } as const;
  return (
    <form
      noValidate
      aria-label={t('settingsTitle')}
      onSubmit={(event) =>
        void form.handleSubmit((values) => {
          clear();
          save.mutate(bodyOf(values, isOwner));
        })(event)
      }
    >
      <Stack>
        <fieldset disabled={!canEdit} className={styles.fieldset}>
          <Stack>
            <Card title={t('general')} description={t('generalText')} labelledBy="funnel-general">
              <div className={formStyles.form}>
                <Field label={t('name')} error={errors.name}>
                  <Input autoComplete="off" {...register('name')} />
                </Field>
                <div className={formStyles.row}>
                  <Field label={t('type')} error={errors.typeFunnel}>
                    <Select {...register('typeFunnel')}>
                      <option value="VSL">{t('typeVSL')}</option>
                      <option value="LPI">{t('typeLPI')}</option>
                    </Select>
                  </Field>
                  <Field label={t('language')} error={errors.language}>
                    <Select {...register('language')}>
                      {LANGUAGES.map((language) => (
                        <option key={language} value={language}>
                          {LANGUAGE_NAMES[language]}
                        </option>
                      ))}
                    </Select>
                  </Field>
                </div>
                <Check label={t('preLaunch')} hint={t('preLaunchHint')} {...register('isPreLaunch')} />
              </div>
            </Card>

            <Card title={t('deadline')} description={t('deadlineText')} labelledBy="funnel-deadline">
              <div className={formStyles.form}>
                <div className={formStyles.row}>
                  <Field label={t('deadlineMode')} error={errors.deadline?.mode}>
                    <Select {...register('deadline.mode')}>
                      <option value="none">{t('deadlineNone')}</option>
                      <option value="fixed">{t('deadlineFixed')}</option>
                      <option value="afterLeadCreated">{t('deadlineAfter')}</option>
                    </Select>
                  </Field>
                  {mode === 'fixed' ? (
                    <Field label={t('deadlineAt')} hint={t('deadlineAtHint')} error={errors.deadline?.at}>
                      <Input type="datetime-local" {...register('deadline.at')} />
                    </Field>
                  ) : null}
                  {mode === 'afterLeadCreated' ? (
                    <Field label={t('deadlineHours')} error={errors.deadline?.hours}>
                      <Input
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={HOURS_MAX}
                        {...register('deadline.hours', number)}
                      />
                    </Field>
                  ) : null}
                </div>
                <Check
                  label={t('deadlineException')}
                  hint={t('deadlineExceptionHint')}
                  {...register('isDeadlineExceptionOn')}
                />
              </div>
            </Card>

            <Card title={t('fake')} description={t('fakeText')} labelledBy="funnel-fake">
              <div className={formStyles.form}>
                <Check
                  label={t('fakeOnline')}
                  hint={t('fakeOnlineHint')}
                  {...register('isFakeUserOnlineOn')}
                />
                {fakeOn ? (
                  <>
                    <LegalNote text={t('legalNote')} />
                    <div className={formStyles.row}>
                      <Field
                        label={t('fakeMin')}
                        error={errors.fakeUserRange?.[0] ?? rangeError?.message ?? rangeError?.root?.message}
                      >
                        <Input type="number" min={0} {...register('fakeUserRange.0', number)} />
                      </Field>
                      <Field label={t('fakeMax')} error={errors.fakeUserRange?.[1]}>
                        <Input type="number" min={0} {...register('fakeUserRange.1', number)} />
                      </Field>
                    </div>
                  </>
                ) : null}
                <Check label={t('fomo')} hint={t('fomoHint')} {...register('isFomoOn')} />
                {fomoOn ? (
                  <>
                    {source !== 'conversions' ? <LegalNote text={t('legalNote')} /> : null}
                    <fieldset className={styles.group}>
                      <legend>{t('fomoWhere')}</legend>
                      <div className={styles.inline}>
                        <Check label={t('fomoLanding')} {...register('fomo.lpi.fomoApplied')} />
                        <Check label={t('fomoVideo')} {...register('fomo.video.fomoApplied')} />
                        <Check label={t('fomoOffer')} {...register('fomo.offert.fomoApplied')} />
                      </div>
                    </fieldset>
                    <div className={formStyles.row}>
                      <Field label={t('fomoInterval')} error={errors.fomo?.intervalSeconds}>
                        <Input
                          type="number"
                          min={5}
                          max={3600}
                          {...register('fomo.intervalSeconds', number)}
                        />
                      </Field>
                      <Field label={t('fomoPosition')} error={errors.fomo?.position}>
                        <Select {...register('fomo.position')}>
                          <option value="left">{t('left')}</option>
                          <option value="right">{t('right')}</option>
                        </Select>
                      </Field>
                      <Field label={t('fomoSource')} error={errors.fomo?.source}>
                        <Select {...register('fomo.source')}>
                          <option value="conversions">{t('sourceConversions')}</option>
                          <option value="messages">{t('sourceMessages')}</option>
                          <option value="both">{t('sourceBoth')}</option>
                        </Select>
                      </Field>
                    </div>
                    <fieldset className={styles.group}>
                      <legend>{t('fomoMessages')}</legend>
                      {messages.fields.length === 0 ? (
                        <p className={styles.pageMeta}>{t('noMessages')}</p>
                      ) : (
                        <ol className={styles.messages}>
                          {messages.fields.map((field, index) => (
                            <li key={field.id} className={styles.messageRow}>
                              <Field label={t('messageName')} error={errors.fomo?.messages?.[index]?.name}>
                                <Input {...register(`fomo.messages.${index}.name`)} />
                              </Field>
                              <Field
                                label={t('messageLocation')}
                                error={errors.fomo?.messages?.[index]?.location}
                              >
                                <Input {...register(`fomo.messages.${index}.location`)} />
                              </Field>
                              <Field
                                label={t('messageCountry')}
                                hint={t('messageCountryHint')}
                                error={errors.fomo?.messages?.[index]?.countryCode}
                              >
                                <Input maxLength={2} {...register(`fomo.messages.${index}.countryCode`)} />
                              </Field>
                              <Button
                                variant="ghost"
                                size="small"
                                aria-label={t('removeMessage', { n: index + 1 })}
                                onClick={() => {
                                  messages.remove(index);
                                }}
                              >
                                ✕
                              </Button>
                            </li>
                          ))}
                        </ol>
                      )}
                      <div>
                        <Button
                          size="small"
                          onClick={() => {
                            messages.append({ name: '', location: '', countryCode: '' });
                          }}
                        >
                          {t('addMessage')}
                        </Button>
                      </div>
                    </fieldset>
                  </>
                ) : null}
              </div>
            </Card>

            <Card title={t('expired')} description={t('expiredText')} labelledBy="funnel-expired">
              <div className={formStyles.form}>
                <div className={formStyles.row}>
                  <Field label={t('expiredTitle')} error={errors.expiredPage?.title}>
                    <Input {...register('expiredPage.title')} />
                  </Field>
                  <Field label={t('expiredSubtitle')} error={errors.expiredPage?.subtitle}>
                    <Input {...register('expiredPage.subtitle')} />
                  </Field>
                </div>
                <Field label={t('expiredDescription')} error={errors.expiredPage?.description}>
                  <textarea
                    className={[formStyles.control, styles.textarea].join(' ')}
                    rows={3}
                    {...register('expiredPage.description')}
                  />
                </Field>
                <div className={formStyles.row}>
                  <Field label={t('expiredHighlight')} error={errors.expiredPage?.highlight}>
                    <Input {...register('expiredPage.highlight')} />
                  </Field>
                  <Field
                    label={t('expiredBg')}
                    optional={t('optional')}
                    error={errors.expiredPage?.bgImageUrl}
                  >
                    <Input type="url" inputMode="url" {...register('expiredPage.bgImageUrl')} />
                  </Field>
                </div>
              </div>
            </Card>
          </Stack>
        </fieldset>

        <Card title={t('pixel')} description={t('pixelText')} labelledBy="funnel-pixel">
          <fieldset disabled={!isOwner} className={styles.fieldset}>
            <div className={formStyles.form}>
              {isOwner ? null : <p className={formStyles.notice}>{t('pixelOwnerOnly')}</p>}
              <div className={formStyles.row}>
                <Field label={t('pixelId')} optional={t('optional')} error={errors.pixel?.pixelId}>
                  <Input inputMode="numeric" autoComplete="off" {...register('pixel.pixelId')} />
                </Field>
                <Field
                  label={t('testEventCode')}
                  optional={t('optional')}
                  error={errors.pixel?.testEventCode}
                >
                  <Input autoComplete="off" {...register('pixel.testEventCode')} />
                </Field>
              </div>
              <p className={styles.status}>
                {t('accessToken')}:{' '}
                <Badge tone={funnel.pixel.hasAccessToken ? 'success' : 'neutral'}>
                  {funnel.pixel.hasAccessToken ? t('tokenSet') : t('tokenNotSet')}
                </Badge>
              </p>
              {isOwner ? (
                <>
                  {clearToken ? null : (
                    <Field
                      label={t('tokenReplace')}
                      optional={t('optional')}
                      hint={t('tokenHint')}
                      error={errors.pixel?.accessToken}
                    >
                      <Input type="password" autoComplete="off" {...register('pixel.accessToken')} />
                    </Field>
                  )}
                  {funnel.pixel.hasAccessToken ? (
                    <Check label={t('tokenClear')} {...register('pixel.clearToken')} />
                  ) : null}
                </>
              ) : null}
            </div>
          </fieldset>
        </Card>

        {canEdit ? (
          <div className={formStyles.form}>
            <FormAlert error={failure} />
            <div className={formStyles.actions}>
              <Button type="submit" variant="primary" busy={save.isPending} disabled={!isDirty}>
                {t('save')}
              </Button>
            </div>
          </div>
        ) : null}
      </Stack>
    </form>
  );
}
