import {
  LeadCreate,
  MAX_LEADS_PER_IMPORT,
  Name,
  type Lead,
  type LeadCreated,
  type Page,
} from '@embudo/contracts';
import { callRoute, ROUTE_PATHS } from '@embudo/contracts/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { z } from 'zod';
import { ApiError, api, isApiError, studioFetch } from '../api/api';
import { useFormatDate, useMessages } from '../i18n/i18n';
import { useCan } from '../session/session';
import { Button } from '../ui/Button';
import { ConfirmDialog, Dialog, DialogActions } from '../ui/dialog';
import { Field, FormAlert, Input, Select, formStyles, useContractForm, useSubmitFailure } from '../ui/form';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { Card, Stack } from '../ui/surface';
import { useToast } from '../ui/toast';
import { RevealedSecret, useRevealOnce } from '../ui/reveal-once';
import { downloadText } from '../ui/download';
import { chunk, linksCsv, parseLeadsCsv, rowIssuesOf, type ParsedLeads, type RowIssue } from './csv';
import styles from './leads.module.css';
import { leadsMessages } from './messages';
import { FunnelHeader } from '../funnel-frame/FunnelHeader';
import { pagesQuery } from '../funnel-frame/funnel-query';

/** The leads screen's address: the search and the page filter, typed and checked. */
export const LeadsSearch = z.object({
  q: z.string().trim().min(1).max(120).optional().catch(undefined),
  page: z.uuid().optional().catch(undefined),
});
export type LeadsSearch = z.infer<typeof LeadsSearch>;

const PAGE_SIZE = 25;
const SEARCH_DELAY_MS = 300;

const leadsKey = (funnelId: string) => ['funnels', funnelId, 'leads'] as const;

export function LeadsScreen({ funnelId, search }: { funnelId: string; search: LeadsSearch }) {
  const t = useMessages(leadsMessages);
  const canEdit = useCan('editor');
  const pages = useQuery(pagesQuery(funnelId));
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const ordered = [...(pages.data ?? [])].sort((a, b) => a.position - b.position);
  return (
    <>
      <FunnelHeader
        funnelId={funnelId}
        description={t('description')}
        actions={
          canEdit ? (
            <>
              <Button
                onClick={() => {
                  setImporting(true);
                }}
              >
                {t('importCsv')}
              </Button>
              <Button
                variant="primary"
                onClick={() => {
                  setCreating(true);
                }}
              >
                {t('newLead')}
              </Button>
            </>
          ) : null
        }
      />
      <Stack>
        <Filters funnelId={funnelId} search={search} pages={ordered} />
        <LeadsTable
          key={`${search.q ?? ''}|${search.page ?? ''}`}
          funnelId={funnelId}
          search={search}
          pages={ordered}
          canEdit={canEdit}
        />
      </Stack>
      {canEdit ? (
        <>
          <CreateLeadDialog funnelId={funnelId} open={creating} onOpenChange={setCreating} />
          <ImportDialog funnelId={funnelId} open={importing} onOpenChange={setImporting} />
        </>
      ) : null}
    </>
  );
}

function Filters({ funnelId, search, pages }: { funnelId: string; search: LeadsSearch; pages: Page[] }) {
  const t = useMessages(leadsMessages);
  const navigate = useNavigate({ from: '/funnels/$funnelId/leads' });
  const [text, setText] = useState(search.q ?? '');
  useEffect(() => {
    const q = text.trim() === '' ? undefined : text.trim();
    if (q === search.q) return;
    const timer = setTimeout(() => {
      void navigate({ params: { funnelId }, search: (prev) => ({ ...prev, q }), replace: true });
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [text, search.q, navigate, funnelId]);
  return (
    <div className={styles.filters} role="search">
      <Field label={t('search')}>
        <Input
          type="search"
          value={text}
          placeholder={t('searchPlaceholder')}
          maxLength={120}
          onChange={(event) => {
            setText(event.target.value);
          }}
        />
      </Field>
      <Field label={t('pageFilter')}>
        <Select
          value={search.page ?? ''}
          onChange={(event) => {
            const page = event.target.value === '' ? undefined : event.target.value;
            void navigate({ params: { funnelId }, search: (prev) => ({ ...prev, page }) });
          }}
        >
          <option value="">{t('anyPage')}</option>
          {pages.map((page, index) => (
            <option key={page.id} value={page.id}>
              {t('pageN', { n: index + 1 })}
            </option>
          ))}
        </Select>
      </Field>
    </div>
  );
}

function LeadsTable({
  funnelId,
  search,
  pages,
  canEdit,
}: {
  funnelId: string;
  search: LeadsSearch;
  pages: Page[];
  canEdit: boolean;
}) {
  const t = useMessages(leadsMessages);
  const formatDate = useFormatDate();
  // The cursors of the pages seen so far: the last one is this page's (keyset paging).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const leads = useQuery({
    queryKey: [...leadsKey(funnelId), { q: search.q, page: search.page, cursor }],
    queryFn: () =>
      api(ROUTE_PATHS.leads.list, {
        params: { id: funnelId },
        query: {
          limit: PAGE_SIZE,
          order: 'newest',
          ...(cursor ? { cursor } : {}),
          ...(search.q ? { search: search.q } : {}),
          ...(search.page ? { pageId: search.page } : {}),
        },
      }),
    placeholderData: keepPreviousData,
  });
  const pageNumber = new Map(pages.map((page, index) => [page.id, index + 1]));
  const filtered = Boolean(search.q ?? search.page);
  return (
    <Card flush>
      {leads.isPending ? (
        <LoadingState />
      ) : leads.isError ? (
        <div className={styles.padded}>
          <ErrorState error={leads.error} onRetry={() => void leads.refetch()} />
        </div>
      ) : leads.data.items.length === 0 && cursors.length === 1 ? (
        filtered ? (
          <EmptyState icon="⌕" title={t('noMatchTitle')} text={t('noMatchText')} />
        ) : (
          <EmptyState title={t('emptyTitle')} text={t('emptyText')} />
        )
      ) : (
        <>
          <div className={styles.tableWrap}>
            <table className={styles.table} aria-busy={leads.isFetching || undefined}>
              <caption className="visually-hidden">
                {t('tableTitle')} · {t('pageOf', { n: cursors.length })}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('name')}</th>
                  <th scope="col">{t('email')}</th>
                  <th scope="col">{t('phone')}</th>
                  <th scope="col">{t('currentPage')}</th>
                  <th scope="col">{t('created')}</th>
                  {canEdit ? (
                    <th scope="col">
                      <span className="visually-hidden">{t('actions')}</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {leads.data.items.map((lead) => {
                  const n = lead.currentPageId ? pageNumber.get(lead.currentPageId) : undefined;
                  return (
                    <tr key={lead.id}>
                      <th scope="row" data-label={t('name')}>
                        <Link
                          to="/funnels/$funnelId/analytics/leads/$leadId"
                          params={{ funnelId, leadId: lead.id }}
                          className={styles.leadLink}
                          title={t('timeline')}
                        >
                          {lead.name}
                        </Link>
                      </th>
                      <td data-label={t('email')}>{lead.email ?? '—'}</td>
                      <td data-label={t('phone')}>{lead.phone ?? '—'}</td>
                      <td data-label={t('currentPage')}>{n ? t('pageN', { n }) : t('noPage')}</td>
                      <td data-label={t('created')}>{formatDate(lead.createdAt)}</td>
                      {canEdit ? (
                        <td className={styles.rowActions}>
                          <LeadActions funnelId={funnelId} lead={lead} />
                        </td>
                      ) : null}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <nav className={styles.pager} aria-label={t('paging')}>
            <Button
              size="small"
              disabled={cursors.length === 1}
              onClick={() => {
                setCursors((items) => items.slice(0, -1));
              }}
            >
              ← {t('previous')}
            </Button>
            <span className={styles.pageNumber}>{t('pageOf', { n: cursors.length })}</span>
            <Button
              size="small"
              disabled={!leads.data.nextCursor || leads.isPlaceholderData}
              onClick={() => {
                const next = leads.data.nextCursor;
                if (next) setCursors((items) => [...items, next]);
              }}
            >
              {t('next')} →
            </Button>
          </nav>
        </>
      )}
    </Card>
  );
}

function LeadActions({ funnelId, lead }: { funnelId: string; lead: Lead }) {
  const t = useMessages(leadsMessages);
  const notify = useToast();
  const queryClient = useQueryClient();
  const [link, setLink] = useState<string | null>(null);
  return (
    <div className={styles.actionsCell}>
      <ConfirmDialog
        trigger={
          <Button size="small" variant="ghost" aria-label={t('newLinkLabel', { name: lead.name })}>
            {t('newLink')}
          </Button>
        }
        title={t('newLinkTitle', { name: lead.name })}
        description={t('newLinkText')}
        confirmLabel={t('newLinkConfirm')}
        onConfirm={async () => {
          const created = await api(ROUTE_PATHS.leads.newLink, { params: { id: lead.id } });
          setLink(created.url);
        }}
      />
      <ConfirmDialog
        trigger={
          <Button size="small" variant="ghost" aria-label={t('deleteLabel', { name: lead.name })}>
            {t('delete')}
          </Button>
        }
        title={t('deleteTitle', { name: lead.name })}
        description={t('deleteText')}
        confirmLabel={t('delete')}
        onConfirm={async () => {
          await api(ROUTE_PATHS.leads.remove, { params: { id: lead.id } });
          notify(t('deleted'));
          await queryClient.invalidateQueries({ queryKey: ['funnels', funnelId] });
        }}
      />
      <LinkDialog
        name={lead.name}
        url={link}
        onClose={() => {
          setLink(null);
        }}
      />
    </div>
  );
}

/** A lead's new link, shown this once with a copy button. */
function LinkDialog({ name, url, onClose }: { name: string; url: string | null; onClose: () => void }) {
  const t = useMessages(leadsMessages);
  return (
    <Dialog
      open={url !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('linkTitle', { name })}
      description={t('linkOnce')}
    >
      {url ? <RevealedSecret label={t('link')} value={url} doneLabel={t('done')} onDone={onClose} /> : null}
    </Dialog>
  );
}

const orEmpty = <S extends z.ZodType<string, string>>(schema: S) => z.union([z.literal(''), schema]);
const LeadForm = z.strictObject({
  name: Name,
  email: orEmpty(LeadCreate.shape.email.unwrap().unwrap()),
  phone: orEmpty(LeadCreate.shape.phone.unwrap().unwrap()),
});

function CreateLeadDialog({
  funnelId,
  open,
  onOpenChange,
}: {
  funnelId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useMessages(leadsMessages);
  const queryClient = useQueryClient();
  const form = useContractForm(LeadForm, { defaultValues: { name: '', email: '', phone: '' } });
  const { failure, fail, clear } = useSubmitFailure(form);
  const {
    revealed: created,
    reveal,
    close,
  } = useRevealOnce<LeadCreated>(onOpenChange, () => {
    form.reset();
    clear();
  });
  const create = useMutation({
    mutationFn: (body: LeadCreate) => api(ROUTE_PATHS.leads.create, { params: { id: funnelId }, body }),
    onSuccess: async (answer) => {
      reveal(answer);
      await queryClient.invalidateQueries({ queryKey: ['funnels', funnelId] });
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
      title={created ? t('linkTitle', { name: created.lead.name }) : t('createTitle')}
      description={created ? t('linkOnce') : t('createDescription')}
    >
      {created ? (
        <RevealedSecret
          label={t('link')}
          value={created.url}
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
              create.mutate({
                name: values.name,
                email: values.email === '' ? null : values.email,
                phone: values.phone === '' ? null : values.phone,
              });
            })(event)
          }
        >
          <Field label={t('name')} error={errors.name}>
            <Input autoComplete="off" {...register('name')} />
          </Field>
          <Field label={t('email')} optional={t('optional')} error={errors.email}>
            <Input type="email" autoComplete="off" {...register('email')} />
          </Field>
          <Field label={t('phone')} optional={t('optional')} error={errors.phone}>
            <Input type="tel" autoComplete="off" {...register('phone')} />
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
              {t('create')}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}

/** One import call, with room for a large batch (the default timeout is for small calls). */
async function importChunk(funnelId: string, leads: LeadCreate[]) {
  try {
    return await callRoute(
      ROUTE_PATHS.leads.import,
      { params: { id: funnelId }, body: { leads } },
      { fetch: studioFetch, timeoutMs: 120_000 },
    );
  } catch (error) {
    if (isApiError(error)) throw error;
    throw new ApiError({
      status: 0,
      code: 'NETWORK',
      message: error instanceof Error ? error.message : 'Request failed',
    });
  }
}

const REPORT_ROWS = 200;

/** The per-row report of a CSV's problems (the first REPORT_ROWS of them). */
export function RowReport({ issues }: { issues: readonly RowIssue[] }) {
  const t = useMessages(leadsMessages);
  const id = useId();
  return (
    <div className={styles.report}>
      <table className={styles.table} aria-labelledby={`${id}-title`}>
        <caption id={`${id}-title`} className={styles.reportTitle}>
          {t('reportTitle')}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('row')}</th>
            <th scope="col">{t('field')}</th>
            <th scope="col">{t('problem')}</th>
          </tr>
        </thead>
        <tbody>
          {issues.slice(0, REPORT_ROWS).map((issue, index) => (
            <tr key={`${issue.row}-${issue.field}-${index}`}>
              <td>{issue.row || '—'}</td>
              <td>
                <code>{issue.field}</code>
              </td>
              <td>{issue.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {issues.length > REPORT_ROWS ? (
        <p className={styles.more}>{t('moreIssues', { count: issues.length - REPORT_ROWS })}</p>
      ) : null}
    </div>
  );
}

function ImportDialog({
  funnelId,
  open,
  onOpenChange,
}: {
  funnelId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useMessages(leadsMessages);
  const queryClient = useQueryClient();
  const [parsed, setParsed] = useState<ParsedLeads | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [serverIssues, setServerIssues] = useState<RowIssue[]>([]);
  const [failure, setFailure] = useState<unknown>(null);
  const [sent, setSent] = useState(0);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<LeadCreated[] | null>(null);
  const [partial, setPartial] = useState(false);

  const reset = () => {
    setParsed(null);
    setFileError(null);
    setServerIssues([]);
    setFailure(null);
    setSent(0);
    setCreated(null);
    setPartial(false);
  };
  const close = (next: boolean) => {
    if (busy) return;
    onOpenChange(next);
    if (!next) reset();
  };

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    reset();
    if (!file) return;
    try {
      const result = parseLeadsCsv(await file.text());
      setParsed(result);
      if (result.fileError)
        setFileError(result.fileError === 'noNameColumn' ? t('noNameColumn') : t('emptyFile'));
    } catch {
      setFileError(t('readFailed'));
    }
  };

  const run = async () => {
    if (!parsed || parsed.issues.length > 0 || parsed.leads.length === 0) return;
    setBusy(true);
    setFailure(null);
    setServerIssues([]);
    const done: LeadCreated[] = [];
    let offset = 0;
    try {
      for (const batch of chunk(parsed.leads)) {
        const answer = await importChunk(funnelId, batch);
        done.push(...answer.leads);
        offset += batch.length;
        setSent(offset);
      }
      setCreated(done);
    } catch (error) {
      if (isApiError(error) && error.issues.some((issue) => issue.field.startsWith('leads.')))
        setServerIssues(rowIssuesOf(error.issues, parsed.rows, offset));
      else setFailure(error);
      if (done.length > 0) {
        setCreated(done);
        setPartial(true);
      }
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: ['funnels', funnelId] });
    }
  };

  const issues = parsed ? [...parsed.issues, ...serverIssues] : serverIssues;
  const total = parsed?.leads.length ?? 0;
  return (
    <Dialog open={open} onOpenChange={close} title={t('importTitle')} description={t('importDescription')}>
      <div className={formStyles.form}>
        {created === null ? (
          <Field
            label={t('file')}
            hint={t('fileHint', { max: MAX_LEADS_PER_IMPORT })}
            error={fileError ?? undefined}
          >
            <Input
              type="file"
              accept=".csv,text/csv"
              disabled={busy}
              onChange={(event) => void choose(event)}
            />
          </Field>
        ) : null}
        {parsed && !parsed.fileError && issues.length === 0 && created === null ? (
          <p className={formStyles.notice} role="status">
            {t('ready', { count: total })}
          </p>
        ) : null}
        {issues.length > 0 ? (
          <>
            <p className={formStyles.alert} role="alert">
              {t('badRows', { count: issues.length })}
            </p>
            <RowReport issues={issues} />
          </>
        ) : null}
        {busy || partial ? (
          <div className={styles.progress}>
            <label htmlFor={`import-progress-${funnelId}`}>{busy ? t('importing') : t('progress')}</label>
            <progress id={`import-progress-${funnelId}`} max={total} value={sent}>
              {sent} / {total}
            </progress>
            <span className={styles.pageMeta}>
              {sent} / {total}
            </span>
          </div>
        ) : null}
        <FormAlert error={failure} />
        {created ? (
          <>
            <p className={partial ? formStyles.alert : formStyles.notice} role="status">
              {partial ? t('partial', { count: created.length }) : t('imported', { count: created.length })}
            </p>
            <p className={styles.warning}>{t('linksOnce')}</p>
          </>
        ) : null}
        <DialogActions>
          {created ? (
            <Button
              variant="primary"
              onClick={() => {
                downloadText(`leads-links-${new Date().toISOString().slice(0, 10)}.csv`, linksCsv(created));
              }}
            >
              {t('downloadLinks')}
            </Button>
          ) : null}
          <Button
            disabled={busy}
            onClick={() => {
              close(false);
            }}
          >
            {created ? t('close') : t('cancel')}
          </Button>
          {created === null ? (
            <Button
              variant="primary"
              busy={busy}
              disabled={!parsed || parsed.fileError !== null || issues.length > 0 || total === 0}
              onClick={() => void run()}
            >
              {t('import', { count: total })}
            </Button>
          ) : null}
        </DialogActions>
      </div>
    </Dialog>
  );
}
