import { ApiKeyCreate, type ApiKey, type ApiKeyCreated } from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/api';
import { useFormatDate, useMessages } from '../i18n/i18n';
import { useCan } from '../session/session';
import { Button } from '../ui/Button';
import { ConfirmDialog, Dialog, DialogActions } from '../ui/dialog';
import { Field, FormAlert, Input, formStyles, useContractForm, useSubmitFailure } from '../ui/form';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { Card, Stack, surfaceStyles as list } from '../ui/surface';
import { useToast } from '../ui/toast';
import { RevealedSecret, useRevealOnce } from '../ui/reveal-once';
import { settingsMessages } from './messages';
import { OwnerOnlyNote } from './SettingsLayout';
import styles from './settings.module.css';

const apiKeysKey = ['api-keys'] as const;

export function ApiKeysScreen() {
  const t = useMessages(settingsMessages);
  const isOwner = useCan('owner');
  const formatDate = useFormatDate();
  const notify = useToast();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const keys = useQuery({ queryKey: apiKeysKey, queryFn: () => api(ROUTE_PATHS.apiKeys.list, {}) });
  const newKey = (
    <Button
      variant="primary"
      onClick={() => {
        setCreating(true);
      }}
    >
      {t('newKey')}
    </Button>
  );
  return (
    <Stack>
      <OwnerOnlyNote />
      <Card
        title={t('apiKeysTitle')}
        description={t('apiKeysDescription')}
        labelledBy="settings-api-keys"
        flush
        actions={isOwner ? newKey : null}
      >
        {keys.isPending ? (
          <LoadingState />
        ) : keys.isError ? (
          <div className={styles.note}>
            <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />
          </div>
        ) : keys.data.length === 0 ? (
          <EmptyState icon="⚿" title={t('noKeys')} text={t('noKeysText')} action={isOwner ? newKey : null} />
        ) : (
          <ul className={list.list}>
            {keys.data.map((key) => (
              <li key={key.id} className={list.listItem}>
                <div className={list.listMain}>
                  <span className={list.listTitle}>{key.label}</span>
                  <span className={list.listMeta}>
                    <code className={styles.prefix}>{key.prefix}…</code> ·{' '}
                    {t('created', { date: formatDate(key.createdAt) })} ·{' '}
                    {key.lastUsedAt
                      ? t('lastUsed', { date: formatDate(key.lastUsedAt, true) })
                      : t('neverUsed')}
                  </span>
                </div>
                {isOwner ? (
                  <div className={list.listActions}>
                    <ConfirmDialog
                      trigger={
                        <Button variant="secondary" size="small" aria-label={`${t('revoke')}: ${key.label}`}>
                          {t('revoke')}
                        </Button>
                      }
                      title={t('revokeKeyTitle', { label: key.label })}
                      description={t('revokeKeyText')}
                      confirmLabel={t('revoke')}
                      onConfirm={async () => {
                        await api(ROUTE_PATHS.apiKeys.remove, { params: { id: key.id } });
                        queryClient.setQueryData<ApiKey[]>(apiKeysKey, (items) =>
                          items?.filter((item) => item.id !== key.id),
                        );
                        notify(t('keyRevoked'));
                      }}
                    />
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
      {isOwner ? <CreateKeyDialog open={creating} onOpenChange={setCreating} /> : null}
    </Stack>
  );
}

function CreateKeyDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useMessages(settingsMessages);
  const queryClient = useQueryClient();
  const form = useContractForm(ApiKeyCreate, { defaultValues: { label: '' } });
  const { failure, fail, clear } = useSubmitFailure(form);
  const {
    revealed: created,
    reveal,
    close,
  } = useRevealOnce<ApiKeyCreated>(onOpenChange, () => {
    form.reset();
    clear();
  });
  const create = useMutation({
    mutationFn: (body: ApiKeyCreate) => api(ROUTE_PATHS.apiKeys.create, { body }),
    onSuccess: (answer) => {
      reveal(answer);
      queryClient.setQueryData<ApiKey[]>(apiKeysKey, (items) => [answer.apiKey, ...(items ?? [])]);
    },
    onError: fail,
  });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={created ? t('keyCreated') : t('newKeyTitle')}
      description={created ? t('keyOnce') : t('apiKeysDescription')}
    >
      {created ? (
        <RevealedSecret
          label={created.apiKey.label}
          value={created.key}
          doneLabel={t('done')}
          onDone={() => {
            close(false);
          }}
        />
      ) : (
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
          <Field label={t('label')} hint={t('labelHint')} error={errors.label}>
            <Input autoComplete="off" {...register('label')} />
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
            <Button type="submit" variant="primary" busy={create.isPending}>
              {t('createKey')}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
