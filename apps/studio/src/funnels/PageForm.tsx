import {
  ButtonAction,
  ButtonLink,
  HostingVideo,
  HttpUrl,
  PageFields,
  PageLayout,
  VideoId,
  VideoUrl,
  type Page,
  type PageCreateInput,
} from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { z } from 'zod';
import { api } from '../api/api';
import { useMessages } from '../i18n/i18n';
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
import { Card, Stack } from '../ui/surface';
import { useToast } from '../ui/toast';
import { Check, LegalNote } from './Check';
import { funnelKeys, pageQuery, pagesQuery } from './data';
import { FunnelHeader } from '../funnel-frame/FunnelHeader';
import styles from './funnels.module.css';
import { PreviewButton } from './Pages';
import { pagesMessages } from './pages-messages';

const orEmpty = <S extends z.ZodType<string, string>>(schema: S) => z.union([z.literal(''), schema]);

/** Every page field of the contracts; a nullable one is a text here, '' meaning none. */
const PageForm = z.strictObject({
  ...PageFields,
  layout: PageLayout,
  buttonAction: ButtonAction,
  buttonUrl: orEmpty(ButtonLink),
  bgImageUrl: orEmpty(HttpUrl),
  hostingVideo: z.union([z.literal(''), HostingVideo]),
  videoId: orEmpty(VideoId),
  videoLibrary: z.string().max(200),
  videoUrl: orEmpty(VideoUrl),
});
type PageFormInput = z.input<typeof PageForm>;
type PageFormOutput = z.output<typeof PageForm>;

export function pageValuesOf(page: Page): PageFormInput {
  const { id: _id, funnelId: _funnel, position: _position, createdAt: _c, updatedAt: _u, ...fields } = page;
  return {
    ...fields,
    buttonUrl: page.buttonUrl ?? '',
    bgImageUrl: page.bgImageUrl ?? '',
    hostingVideo: page.hostingVideo ?? '',
    videoId: page.videoId ?? '',
    videoLibrary: page.videoLibrary ?? '',
    videoUrl: page.videoUrl ?? '',
  };
}

export function pageBodyOf(values: PageFormOutput): PageCreateInput {
  const none = (value: string) => (value === '' ? null : value);
  return {
    ...values,
    buttonUrl: none(values.buttonUrl),
    bgImageUrl: none(values.bgImageUrl),
    hostingVideo: values.hostingVideo === '' ? null : values.hostingVideo,
    videoId: none(values.videoId),
    videoLibrary: none(values.videoLibrary),
    videoUrl: none(values.videoUrl),
  };
}

export function PageFormScreen({ funnelId, pageId }: { funnelId: string; pageId: string }) {
  const t = useMessages(pagesMessages);
  const canEdit = useCan('editor');
  const page = useQuery(pageQuery(pageId));
  const pages = useQuery(pagesQuery(funnelId));
  const index = [...(pages.data ?? [])]
    .sort((a, b) => a.position - b.position)
    .findIndex((item) => item.id === pageId);
  return (
    <>
      <FunnelHeader
        funnelId={funnelId}
        description={t('formDescription')}
        actions={canEdit ? <PreviewButton pageId={pageId} /> : null}
      />
      <Link to="/funnels/$funnelId/pages" params={{ funnelId }} className={styles.back}>
        <span aria-hidden="true">←</span> {t('back')}
      </Link>
      {page.isPending ? (
        <Card>
          <LoadingState />
        </Card>
      ) : page.isError ? (
        <Card>
          <ErrorState error={page.error} onRetry={() => void page.refetch()} />
        </Card>
      ) : (
        <PageFormView page={page.data} title={t('formTitle', { n: index >= 0 ? index + 1 : '…' })} />
      )}
    </>
  );
}

function PageFormView({ page, title }: { page: Page; title: string }) {
  const t = useMessages(pagesMessages);
  const canEdit = useCan('editor');
  const notify = useToast();
  const queryClient = useQueryClient();
  const form = useContractForm(PageForm, { defaultValues: pageValuesOf(page) });
  const { failure, fail, clear } = useSubmitFailure(form);
  const save = useMutation({
    mutationFn: (body: PageCreateInput) => api(ROUTE_PATHS.pages.update, { params: { id: page.id }, body }),
    onSuccess: (next) => {
      queryClient.setQueryData(funnelKeys.page(next.id), next);
      queryClient.setQueryData<Page[]>(funnelKeys.pages(next.funnelId), (items) =>
        items?.map((item) => (item.id === next.id ? next : item)),
      );
      form.reset(pageValuesOf(next));
      notify(t('saved'));
    },
    onError: fail,
  });
  const {
    register,
    watch,
    formState: { errors, isDirty },
  } = form;
  const hosting = watch('hostingVideo');
  const fakeProgress = watch('showFakeProgress');
  const number = { valueAsNumber: true } as const;
  const colorHint = t('colorHint');
  const textarea = [formStyles.control, styles.textarea].join(' ');
  return (
    <form
      noValidate
      aria-label={title}
      onSubmit={(event) =>
        void form.handleSubmit((values) => {
          clear();
          save.mutate(pageBodyOf(values));
        })(event)
      }
    >
      <Stack>
        <fieldset disabled={!canEdit} className={styles.fieldset}>
          <Stack>
            <Card title={title} description={t('contentText')} labelledBy="page-content">
              <div className={formStyles.form}>
                <div className={formStyles.row}>
                  <Field label={t('layout')} error={errors.layout}>
                    <Select {...register('layout')}>
                      <option value="vsl">{t('layoutVsl')}</option>
                      <option value="landing">{t('layoutLanding')}</option>
                    </Select>
                  </Field>
                </div>
                <Field label={t('topline')} error={errors.topline}>
                  <textarea className={textarea} rows={2} {...register('topline')} />
                </Field>
                <div className={styles.inline}>
                  <Check label={t('showTopLine')} {...register('showTopLine')} />
                </div>
                <Field label={t('headline')} error={errors.headline}>
                  <textarea className={textarea} rows={3} {...register('headline')} />
                </Field>
                <div className={styles.inline}>
                  <Check label={t('showHeadLine')} {...register('showHeadLine')} />
                </div>
                <Field label={t('subheadline')} error={errors.subheadline}>
                  <textarea className={textarea} rows={3} {...register('subheadline')} />
                </Field>
                <div className={styles.inline}>
                  <Check label={t('showSubHeadLine')} {...register('showSubHeadLine')} />
                </div>
                <div className={formStyles.row}>
                  <ColorField
                    form={form}
                    name="topLineColor"
                    label={t('topLineColor')}
                    pickerLabel={t('pickColor', { label: t('topLineColor') })}
                    hint={colorHint}
                    error={errors.topLineColor}
                  />
                  <ColorField
                    form={form}
                    name="headlineColor"
                    label={t('headlineColor')}
                    pickerLabel={t('pickColor', { label: t('headlineColor') })}
                    hint={colorHint}
                    error={errors.headlineColor}
                  />
                  <ColorField
                    form={form}
                    name="subHeadlineColor"
                    label={t('subHeadlineColor')}
                    pickerLabel={t('pickColor', { label: t('subHeadlineColor') })}
                    hint={colorHint}
                    error={errors.subHeadlineColor}
                  />
                </div>
              </div>
            </Card>

            <Card title={t('video')} description={t('videoText')} labelledBy="page-video">
              <div className={formStyles.form}>
                <div className={formStyles.row}>
                  <Field label={t('hostingVideo')} error={errors.hostingVideo}>
                    <Select {...register('hostingVideo')}>
                      <option value="">{t('hostingNone')}</option>
                      <option value="SELF_HOSTED">{t('hostingSelf')}</option>
                      <option value="VIMEO">Vimeo</option>
                      <option value="VTURB">VTurb</option>
                      <option value="PANDA">Panda Video</option>
                      <option value="EMBED">{t('hostingEmbed')}</option>
                    </Select>
                  </Field>
                  {hosting === '' ? null : (
                    <>
                      <Field label={t('videoId')} optional={t('optional')} error={errors.videoId}>
                        <Input autoComplete="off" {...register('videoId')} />
                      </Field>
                      <Field label={t('videoLibrary')} optional={t('optional')} error={errors.videoLibrary}>
                        <Input autoComplete="off" {...register('videoLibrary')} />
                      </Field>
                    </>
                  )}
                </div>
                {hosting === '' ? null : (
                  <Field label={t('videoUrl')} optional={t('optional')} error={errors.videoUrl}>
                    <Input inputMode="url" autoComplete="off" {...register('videoUrl')} />
                  </Field>
                )}
                <Field label={t('bgImageUrl')} optional={t('optional')} error={errors.bgImageUrl}>
                  <Input type="url" inputMode="url" autoComplete="off" {...register('bgImageUrl')} />
                </Field>
              </div>
            </Card>

            <Card title={t('button')} description={t('buttonText')} labelledBy="page-button">
              <div className={formStyles.form}>
                <Field label={t('buttonCopy')} error={errors.buttonCopy}>
                  <textarea className={textarea} rows={2} {...register('buttonCopy')} />
                </Field>
                <div className={formStyles.row}>
                  <Field label={t('buttonAction')} error={errors.buttonAction}>
                    <Select {...register('buttonAction')}>
                      <option value="NEXT-PAGE">{t('actionNext')}</option>
                      <option value="NEXT-PREVIEW-PAGE">{t('actionNextPreview')}</option>
                      <option value="OFFERT">{t('actionOffer')}</option>
                      <option value="LPI-REDIRECT-WPP">{t('actionWhatsapp')}</option>
                    </Select>
                  </Field>
                  <Field
                    label={t('buttonUrl')}
                    optional={t('optional')}
                    hint={t('buttonUrlHint')}
                    error={errors.buttonUrl}
                  >
                    <Input inputMode="url" autoComplete="off" {...register('buttonUrl')} />
                  </Field>
                </div>
                <fieldset className={styles.group}>
                  <legend>{t('buttonTime')}</legend>
                  <div className={styles.time}>
                    <Field label={t('hours')} error={errors.buttonTime?.hours}>
                      <Input type="number" min={0} max={23} {...register('buttonTime.hours', number)} />
                    </Field>
                    <Field label={t('minutes')} error={errors.buttonTime?.minutes}>
                      <Input type="number" min={0} max={59} {...register('buttonTime.minutes', number)} />
                    </Field>
                    <Field label={t('seconds')} error={errors.buttonTime?.seconds}>
                      <Input type="number" min={0} max={59} {...register('buttonTime.seconds', number)} />
                    </Field>
                  </div>
                </fieldset>
                <div className={formStyles.row}>
                  <ColorField
                    form={form}
                    name="buttonBgColor"
                    label={t('buttonBgColor')}
                    pickerLabel={t('pickColor', { label: t('buttonBgColor') })}
                    hint={colorHint}
                    error={errors.buttonBgColor}
                  />
                  <ColorField
                    form={form}
                    name="buttonTextColor"
                    label={t('buttonTextColor')}
                    pickerLabel={t('pickColor', { label: t('buttonTextColor') })}
                    hint={colorHint}
                    error={errors.buttonTextColor}
                  />
                </div>
                <Check label={t('isLpiOn')} {...register('isLpiOn')} />
              </div>
            </Card>

            <Card title={t('progress')} description={t('progressText')} labelledBy="page-progress">
              <div className={formStyles.form}>
                <Check label={t('showFakeProgress')} {...register('showFakeProgress')} />
                {fakeProgress ? <LegalNote text={t('legalNote')} /> : null}
                <div className={formStyles.row}>
                  <Field label={t('barProgressPercent')} error={errors.barProgressPercent}>
                    <Input type="number" min={0} max={100} {...register('barProgressPercent', number)} />
                  </Field>
                  <ColorField
                    form={form}
                    name="barProgressTextColor"
                    label={t('barProgressTextColor')}
                    pickerLabel={t('pickColor', { label: t('barProgressTextColor') })}
                    hint={colorHint}
                    error={errors.barProgressTextColor}
                  />
                </div>
              </div>
            </Card>
          </Stack>
        </fieldset>
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
