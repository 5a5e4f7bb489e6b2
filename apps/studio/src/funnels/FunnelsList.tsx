import { FunnelFields, FunnelTemplateId, Language, TypeFunnel, type Funnel } from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from 'zod';
import { api } from '../api/api';
import { LANGUAGE_NAMES, LANGUAGES, useFormatDate, useMessages, type Translate } from '../i18n/i18n';
import { useCan } from '../session/session';
import { Button, buttonClass } from '../ui/Button';
import { ConfirmDialog, Dialog, DialogActions } from '../ui/dialog';
import { Field, FormAlert, Input, Select, formStyles, useContractForm, useSubmitFailure } from '../ui/form';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { Badge, Card, PageHeader } from '../ui/surface';
import { useToast } from '../ui/toast';
import { funnelKeys, funnelsQuery, templatesQuery } from './data';
import styles from './funnels.module.css';
import { funnelsMessages } from './messages';

type T = Translate<keyof (typeof funnelsMessages)['en']>;

export const typeName = (t: T, type: TypeFunnel) => (type === 'VSL' ? t('typeVSL') : t('typeLPI'));

/** The funnels of the account: each with its type, language, pages and leads, and what can be done to it. */
export function FunnelsScreen() {
  const t = useMessages(funnelsMessages);
  const canEdit = useCan('editor');
  const funnels = useQuery(funnelsQuery);
  const [creating, setCreating] = useState(false);
  const newFunnel = (
    <Button
      variant="primary"
      onClick={() => {
        setCreating(true);
      }}
    >
      {t('newFunnel')}
    </Button>
  );
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} actions={canEdit ? newFunnel : null} />
      {funnels.isPending ? (
        <Card>
          <LoadingState />
        </Card>
      ) : funnels.isError ? (
        <Card>
          <ErrorState error={funnels.error} onRetry={() => void funnels.refetch()} />
        </Card>
      ) : funnels.data.length === 0 ? (
        <Card>
          <EmptyState title={t('emptyTitle')} text={t('emptyText')} action={canEdit ? newFunnel : null} />
        </Card>
      ) : (
        <ul className={styles.grid} aria-label={t('funnelList')}>
          {funnels.data.map((funnel) => (
            <FunnelCard key={funnel.id} funnel={funnel} canEdit={canEdit} />
          ))}
        </ul>
      )}
      {canEdit ? <CreateFunnelDialog open={creating} onOpenChange={setCreating} /> : null}
    </>
  );
}

function FunnelCard({ funnel, canEdit }: { funnel: Funnel; canEdit: boolean }) {
  const t = useMessages(funnelsMessages);
  const formatDate = useFormatDate();
  const notify = useToast();
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [duplicating, setDuplicating] = useState(false);
  const params = { funnelId: funnel.id };
  const headingId = `funnel-${funnel.id}`;
  return (
    <li className={styles.funnelCard} aria-labelledby={headingId}>
      <h2 className={styles.funnelName} id={headingId}>
        <Link to="/funnels/$funnelId/pages" params={params}>
          {funnel.name}
        </Link>
      </h2>
      <div className={styles.badges}>
        <Badge tone="accent">{typeName(t, funnel.typeFunnel)}</Badge>
        <Badge>{LANGUAGE_NAMES[funnel.language]}</Badge>
      </div>
      <p className={styles.stats}>
        <span>
          {funnel.pageCount === 1 ? t('pageCountOne') : t('pageCount', { count: funnel.pageCount })}
        </span>
        <span>
          {funnel.leadCount === 1 ? t('leadCountOne') : t('leadCount', { count: funnel.leadCount })}
        </span>
      </p>
      <p className={styles.pageMeta}>{t('updated', { date: formatDate(funnel.updatedAt) })}</p>
      <div className={styles.cardLinks}>
        <Link to="/funnels/$funnelId/pages" params={params} className={buttonClass('secondary', 'small')}>
          {t('pages')}
        </Link>
        <Link to="/funnels/$funnelId/leads" params={params} className={buttonClass('secondary', 'small')}>
          {t('leads')}
        </Link>
        <Link to="/funnels/$funnelId/settings" params={params} className={buttonClass('secondary', 'small')}>
          {t('settings')}
        </Link>
        {canEdit ? (
          <div className={styles.cardActions} role="group" aria-label={t('actions', { name: funnel.name })}>
            <Button
              size="small"
              variant="ghost"
              onClick={() => {
                setRenaming(true);
              }}
            >
              {t('rename')}
            </Button>
            <Button
              size="small"
              variant="ghost"
              onClick={() => {
                setDuplicating(true);
              }}
            >
              {t('duplicate')}
            </Button>
            <ConfirmDialog
              trigger={
                <Button size="small" variant="ghost">
                  {t('delete')}
                </Button>
              }
              title={t('deleteTitle', { name: funnel.name })}
              description={t('deleteText', { pages: funnel.pageCount, leads: funnel.leadCount })}
              confirmLabel={t('delete')}
              onConfirm={async () => {
                await api(ROUTE_PATHS.funnels.remove, { params: { id: funnel.id } });
                queryClient.setQueryData<Funnel[]>(funnelKeys.all, (items) =>
                  items?.filter((item) => item.id !== funnel.id),
                );
                queryClient.removeQueries({ queryKey: funnelKeys.one(funnel.id) });
                notify(t('deleted'));
              }}
            />
          </div>
        ) : null}
      </div>
      {canEdit ? (
        <>
          <NameDialog
            open={renaming}
            onOpenChange={setRenaming}
            title={t('renameTitle', { name: funnel.name })}
            initial={funnel.name}
            submitLabel={t('save')}
            send={(name) => api(ROUTE_PATHS.funnels.update, { params: { id: funnel.id }, body: { name } })}
            done={t('renamed')}
          />
          <NameDialog
            open={duplicating}
            onOpenChange={setDuplicating}
            title={t('duplicateTitle', { name: funnel.name })}
            description={t('duplicateText')}
            initial={t('duplicateName', { name: funnel.name })}
            submitLabel={t('duplicate')}
            send={(name) => api(ROUTE_PATHS.funnels.duplicate, { params: { id: funnel.id }, body: { name } })}
            done={t('duplicated')}
          />
        </>
      ) : null}
    </li>
  );
}

const NameForm = z.strictObject({ name: FunnelFields.name });

/** Asks for a funnel's name (rename, duplicate) and sends it. */
function NameDialog({
  open,
  onOpenChange,
  title,
  description,
  initial,
  submitLabel,
  send,
  done,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  initial: string;
  submitLabel: string;
  send: (name: string) => Promise<Funnel>;
  done: string;
}) {
  const t = useMessages(funnelsMessages);
  const notify = useToast();
  const queryClient = useQueryClient();
  const form = useContractForm(NameForm, { values: { name: initial } });
  const { failure, fail, clear } = useSubmitFailure(form);
  const save = useMutation({
    mutationFn: (name: string) => send(name),
    onSuccess: async (funnel) => {
      queryClient.setQueryData(funnelKeys.one(funnel.id), funnel);
      await queryClient.invalidateQueries({ queryKey: funnelKeys.all, exact: true });
      notify(done);
      close(false);
    },
    onError: fail,
  });
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      form.reset();
      clear();
    }
  };
  return (
    <Dialog open={open} onOpenChange={close} title={title} {...(description ? { description } : {})}>
      <form
        className={formStyles.form}
        noValidate
        onSubmit={(event) =>
          void form.handleSubmit((values) => {
            clear();
            save.mutate(values.name);
          })(event)
        }
      >
        <Field label={t('name')} error={form.formState.errors.name}>
          <Input autoComplete="off" {...form.register('name')} />
        </Field>
        <FormAlert error={failure} />
        <DialogActions>
          <Button
            onClick={() => {
              close(false);
            }}
          >
            {t('cancel')}
          </Button>
          <Button type="submit" variant="primary" busy={save.isPending}>
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

const CreateForm = z.strictObject({
  start: z.enum(['empty', ...FunnelTemplateId.options]),
  name: FunnelFields.name,
  typeFunnel: TypeFunnel,
  language: Language,
});
type CreateForm = z.infer<typeof CreateForm>;

function CreateFunnelDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useMessages(funnelsMessages);
  const notify = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const templates = useQuery({ ...templatesQuery, enabled: open });
  const form = useContractForm(CreateForm, {
    defaultValues: { start: 'vsl-launch', name: '', typeFunnel: 'VSL', language: 'es' },
  });
  const { failure, fail, clear } = useSubmitFailure(form);
  const create = useMutation({
    mutationFn: (values: CreateForm) =>
      values.start === 'empty'
        ? api(ROUTE_PATHS.funnels.create, {
            body: { name: values.name, typeFunnel: values.typeFunnel, language: values.language },
          })
        : api(ROUTE_PATHS.funnels.createFromTemplate, {
            body: { template: values.start, name: values.name, language: values.language },
          }),
    onSuccess: async (funnel) => {
      queryClient.setQueryData(funnelKeys.one(funnel.id), funnel);
      await queryClient.invalidateQueries({ queryKey: funnelKeys.all, exact: true });
      notify(t('created'));
      close(false);
      await navigate({ to: '/funnels/$funnelId/pages', params: { funnelId: funnel.id } });
    },
    onError: fail,
  });
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      form.reset();
      clear();
    }
  };
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const start = watch('start');
  /** "· 3 pages" once the templates are known. */
  const pagesOf = (id: FunnelTemplateId) => {
    const count = templates.data?.find((template) => template.id === id)?.pageCount;
    if (count === undefined) return '';
    return ` · ${count === 1 ? t('pageCountOne') : t('pageCount', { count })}`;
  };
  const choices = [
    { value: 'vsl-launch', title: t('fromVsl'), text: t('fromVslText') + pagesOf('vsl-launch') },
    { value: 'whatsapp-landing', title: t('fromWpp'), text: t('fromWppText') + pagesOf('whatsapp-landing') },
    { value: 'empty', title: t('fromEmpty'), text: t('fromEmptyText') },
  ] as const;
  return (
    <Dialog open={open} onOpenChange={close} title={t('createTitle')} description={t('createDescription')}>
      <form
        className={formStyles.form}
        noValidate
        onSubmit={(event) =>
          void form.handleSubmit((values) => {
            clear();
            create.mutate(values);
          })(event)
        }
      >
        <fieldset className={styles.choices}>
          <legend>{t('startFrom')}</legend>
          {choices.map((choice) => (
            <label key={choice.value} className={styles.choice}>
              <input type="radio" value={choice.value} {...register('start')} />
              <span>
                <span className={styles.choiceTitle}>{choice.title}</span>
                <span className={styles.choiceText}>{choice.text}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <Field label={t('name')} error={errors.name}>
          <Input autoComplete="off" {...register('name')} />
        </Field>
        <div className={formStyles.row}>
          {start === 'empty' ? (
            <Field label={t('type')} error={errors.typeFunnel}>
              <Select {...register('typeFunnel')}>
                {TypeFunnel.options.map((type) => (
                  <option key={type} value={type}>
                    {typeName(t, type)}
                  </option>
                ))}
              </Select>
            </Field>
          ) : null}
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
        <FormAlert error={failure} />
        <DialogActions>
          <Button
            onClick={() => {
              close(false);
            }}
          >
            {t('cancel')}
          </Button>
          <Button type="submit" variant="primary" busy={create.isPending}>
            {t('create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
