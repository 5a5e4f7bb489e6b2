import { DomainCreate, type DnsRecord, type Domain } from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/api';
import { useFormatDate, useMessages } from '../i18n/i18n';
import { useCan } from '../session/session';
import { Button } from '../ui/Button';
import { ConfirmDialog } from '../ui/dialog';
import { Field, FormAlert, Input, formStyles, useContractForm, useSubmitFailure } from '../ui/form';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { CopyField } from '../ui/CopyField';
import { useFailureMessage } from '../ui/failure';
import { Badge, Card, Stack, surfaceStyles as list } from '../ui/surface';
import { useToast } from '../ui/toast';
import { settingsMessages } from './messages';
import { OwnerOnlyNote } from './SettingsLayout';
import styles from './settings.module.css';

const domainsKey = ['domains'] as const;

export function DomainsScreen() {
  const t = useMessages(settingsMessages);
  const isOwner = useCan('owner');
  const domains = useQuery({ queryKey: domainsKey, queryFn: () => api(ROUTE_PATHS.domains.list, {}) });
  return (
    <Stack>
      <OwnerOnlyNote />
      <p className={formStyles.notice}>{t('verificationHow')}</p>
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
              <DomainItem key={domain.id} domain={domain} isOwner={isOwner} />
            ))}
          </ul>
        )}
      </Card>
    </Stack>
  );
}

const STATE_TONES = { pending: 'neutral', verified: 'success', failing: 'warning' } as const;

/** One domain: its state and why, when it was last checked, the records to set, and what to do. */
function DomainItem({ domain, isOwner }: { domain: Domain; isOwner: boolean }) {
  const t = useMessages(settingsMessages);
  const formatDate = useFormatDate();
  const notify = useToast();
  const failure = useFailureMessage();
  const queryClient = useQueryClient();
  const check = useMutation({
    mutationFn: () => api(ROUTE_PATHS.domains.verify, { params: { id: domain.id } }),
    onSuccess: (checked) => {
      queryClient.setQueryData<Domain[]>(domainsKey, (items) =>
        items?.map((item) => (item.id === checked.id ? checked : item)),
      );
      notify(checked.state === 'verified' ? t('checkVerified') : t('checkNotYet'));
    },
    onError: (error) => {
      notify(failure(error), 'error');
    },
  });
  const reason = domain.failure
    ? t(`failure_${domain.failure}`, { target: domain.records.target.value })
    : null;
  const stateText =
    domain.state === 'verified'
      ? t('verifiedText')
      : domain.state === 'pending'
        ? t('pendingText')
        : domain.serving
          ? t('failingServingText')
          : t('failingStoppedText');
  return (
    <li className={[list.listItem, styles.domain].join(' ')}>
      <div className={styles.domainHead}>
        <div className={list.listMain}>
          <span className={styles.domainHost}>
            <span className={list.listTitle}>{domain.host}</span>
            <Badge tone={STATE_TONES[domain.state]}>{t(`state_${domain.state}`)}</Badge>
          </span>
          <span className={list.listMeta}>
            {domain.checkedAt
              ? t('lastChecked', { date: formatDate(domain.checkedAt, true) })
              : t('notCheckedYet')}
            {' · '}
            {t('added', { date: formatDate(domain.createdAt) })}
          </span>
        </div>
        {isOwner ? (
          <div className={list.listActions}>
            <Button
              variant="secondary"
              size="small"
              busy={check.isPending}
              aria-label={`${t('checkNow')}: ${domain.host}`}
              onClick={() => {
                check.mutate();
              }}
            >
              {t('checkNow')}
            </Button>
            <ConfirmDialog
              trigger={
                <Button variant="secondary" size="small" aria-label={`${t('remove')}: ${domain.host}`}>
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
      </div>
      <p className={styles.domainState} data-state={domain.state}>
        {stateText}
        {reason ? ` ${reason}` : null}
      </p>
      {domain.state === 'verified' ? (
        <details className={styles.records}>
          <summary>{t('recordsShow')}</summary>
          <DnsRecords domain={domain} />
        </details>
      ) : (
        <div className={styles.records}>
          <p className={styles.recordsTitle}>{t('recordsTitle')}</p>
          <DnsRecords domain={domain} />
        </div>
      )}
    </li>
  );
}

function DnsRecords({ domain }: { domain: Domain }) {
  const t = useMessages(settingsMessages);
  const record = (which: 'ownership' | 'target', item: DnsRecord) => (
    <fieldset className={styles.record}>
      <legend className={styles.recordLegend}>
        {t(which === 'ownership' ? 'recordOwnership' : 'recordTarget', { type: item.type })}
      </legend>
      <CopyField label={t('recordName')} value={item.name} />
      <CopyField label={t('recordValue')} value={item.value} />
    </fieldset>
  );
  return (
    <>
      <div className={styles.recordList}>
        {record('ownership', domain.records.ownership)}
        {record('target', domain.records.target)}
      </div>
      <p className={styles.recordHint}>{t('apexHint', { target: domain.records.target.value })}</p>
    </>
  );
}

function AddDomain() {
  const t = useMessages(settingsMessages);
  const notify = useToast();
  const queryClient = useQueryClient();
  const form = useContractForm(DomainCreate, { defaultValues: { host: '' } });
  const { failure, fail, clear } = useSubmitFailure(form, {
    conflict: { field: 'host', message: t('domainTaken') },
  });
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
