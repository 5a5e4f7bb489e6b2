import { DomainCreate, type Domain } from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/api';
import { useFormatDate, useMessages } from '../i18n/i18n';
import { useCan } from '../session/session';
import { Button } from '../ui/Button';
import { ConfirmDialog } from '../ui/dialog';
import { Field, FormAlert, Input, formStyles, useContractForm, useSubmitFailure } from '../ui/form';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { Card, Stack, surfaceStyles as list } from '../ui/surface';
import { useToast } from '../ui/toast';
import { settingsMessages } from './messages';
import { OwnerOnlyNote } from './SettingsLayout';
import styles from './settings.module.css';

const domainsKey = ['domains'] as const;

export function DomainsScreen() {
  const t = useMessages(settingsMessages);
  const isOwner = useCan('owner');
  const formatDate = useFormatDate();
  const notify = useToast();
  const queryClient = useQueryClient();
  const domains = useQuery({ queryKey: domainsKey, queryFn: () => api(ROUTE_PATHS.domains.list, {}) });
  return (
    <Stack>
      <OwnerOnlyNote />
      <p className={formStyles.notice}>{t('verificationLater')}</p>
      <Card
        title={t('domainsTitle')}
        description={t('domainsDescription')}
        labelledBy="settings-domains"
        flush
      >
        {isOwner ? <AddDomain /> : null}
        {domains.isPending ? (
          <LoadingState />
        ) : domains.isError ? (
          <div className={styles.note}>
            <ErrorState error={domains.error} onRetry={() => void domains.refetch()} />
          </div>
        ) : domains.data.length === 0 ? (
          <EmptyState icon="🌐" title={t('noDomains')} text={t('noDomainsText')} />
        ) : (
          <ul className={list.list}>
            {domains.data.map((domain) => (
              <li key={domain.id} className={list.listItem}>
                <div className={list.listMain}>
                  <span className={list.listTitle}>{domain.host}</span>
                  <span className={list.listMeta}>{t('added', { date: formatDate(domain.createdAt) })}</span>
                </div>
                {isOwner ? (
                  <div className={list.listActions}>
                    <ConfirmDialog
                      trigger={
                        <Button
                          variant="secondary"
                          size="small"
                          aria-label={`${t('remove')}: ${domain.host}`}
                        >
                          {t('remove')}
                        </Button>
                      }
                      title={t('removeDomainTitle', { host: domain.host })}
                      description={t('removeDomainText', { host: domain.host })}
                      confirmLabel={t('remove')}
                      onConfirm={async () => {
                        await api(ROUTE_PATHS.domains.remove, { params: { id: domain.id } });
                        queryClient.setQueryData<Domain[]>(domainsKey, (items) =>
                          items?.filter((item) => item.id !== domain.id),
                        );
                        notify(t('domainRemoved'));
                      }}
                    />
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </Stack>
  );
}

function AddDomain() {
  const t = useMessages(settingsMessages);
  const notify = useToast();
  const queryClient = useQueryClient();
  const form = useContractForm(DomainCreate, { defaultValues: { host: '' } });
  const { failure, fail, clear } = useSubmitFailure(form);
  const add = useMutation({
    mutationFn: (body: DomainCreate) => api(ROUTE_PATHS.domains.create, { body }),
    onSuccess: (domain) => {
      queryClient.setQueryData<Domain[]>(domainsKey, (items) => [...(items ?? []), domain]);
      form.reset();
      notify(t('domainAdded'));
    },
    onError: fail,
  });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <form
      className={styles.addRow}
      noValidate
      onSubmit={(event) =>
        void form.handleSubmit((values) => {
          clear();
          add.mutate(values);
        })(event)
      }
    >
      <Field label={t('host')} hint={t('hostHint')} error={errors.host}>
        <Input autoCapitalize="none" spellCheck={false} {...register('host')} />
      </Field>
      <div className={styles.addButton}>
        <Button type="submit" variant="primary" busy={add.isPending}>
          {t('addDomain')}
        </Button>
      </div>
      <div className={styles.addAlert}>
        <FormAlert error={failure} />
      </div>
    </form>
  );
}
