import type { Page, PreviewCreated } from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type DragEvent } from 'react';
import { api } from '../api/api';
import { useFormatDate, useMessages } from '../i18n/i18n';
import { useCan } from '../session/session';
import { Button, buttonClass } from '../ui/Button';
import { ConfirmDialog } from '../ui/dialog';
import { useFailureMessage } from '../ui/failure';
import { FormAlert } from '../ui/form';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { Card, Stack } from '../ui/surface';
import { useToast } from '../ui/toast';
import { funnelKeys, pagesQuery } from './data';
import { FunnelHeader } from '../funnel-frame/FunnelHeader';
import styles from './funnels.module.css';
import { formatButtonTime, moveItem, pageTitle } from './page-text';
import { pagesMessages } from './pages-messages';

export function PagesScreen({ funnelId }: { funnelId: string }) {
  const t = useMessages(pagesMessages);
  const canEdit = useCan('editor');
  const notify = useToast();
  const queryClient = useQueryClient();
  const pages = useQuery(pagesQuery(funnelId));
  const [announcement, setAnnouncement] = useState('');
  const [failure, setFailure] = useState<unknown>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);

  const add = useMutation({
    mutationFn: () => api(ROUTE_PATHS.pages.create, { params: { id: funnelId }, body: {} }),
    onSuccess: async (page) => {
      queryClient.setQueryData<Page[]>(funnelKeys.pages(funnelId), (items) => [...(items ?? []), page]);
      notify(t('added'));
      await queryClient.invalidateQueries({ queryKey: funnelKeys.one(funnelId), exact: true });
    },
    onError: setFailure,
  });

  const reorder = useMutation({
    mutationFn: (pageIds: string[]) =>
      api(ROUTE_PATHS.pages.reorder, { params: { id: funnelId }, body: { pageIds } }),
    onMutate: (pageIds) => {
      setFailure(null);
      const before = queryClient.getQueryData<Page[]>(funnelKeys.pages(funnelId));
      if (before) {
        const byId = new Map(before.map((page) => [page.id, page]));
        queryClient.setQueryData<Page[]>(
          funnelKeys.pages(funnelId),
          pageIds.flatMap((id, index) => {
            const page = byId.get(id);
            return page ? [{ ...page, position: index }] : [];
          }),
        );
      }
      return { before };
    },
    onSuccess: (next) => {
      queryClient.setQueryData(funnelKeys.pages(funnelId), next);
    },
    onError: (error, _ids, context) => {
      if (context?.before) queryClient.setQueryData(funnelKeys.pages(funnelId), context.before);
      setFailure(error);
    },
  });

  const ordered = [...(pages.data ?? [])].sort((a, b) => a.position - b.position);
  const move = (from: number, to: number) => {
    if (to < 0 || to >= ordered.length || from === to) return;
    const page = ordered[from];
    if (!page) return;
    const ids = moveItem(
      ordered.map((item) => item.id),
      from,
      to,
    );
    reorder.mutate(ids);
    setAnnouncement(
      t('moved', {
        title: pageTitle(page, t('untitled', { n: from + 1 })),
        n: to + 1,
        total: ordered.length,
      }),
    );
  };

  const addButton = (
    <Button
      variant="primary"
      busy={add.isPending}
      onClick={() => {
        setFailure(null);
        add.mutate();
      }}
    >
      {t('addPage')}
    </Button>
  );

  return (
    <>
      <FunnelHeader funnelId={funnelId} description={t('description')} actions={canEdit ? addButton : null} />
      <Stack>
        <FormAlert error={failure} />
        <Card
          title={t('listTitle')}
          description={canEdit ? t('listText') : undefined}
          labelledBy="pages-title"
          flush
        >
          {pages.isPending ? (
            <LoadingState />
          ) : pages.isError ? (
            <div className={styles.pageItem}>
              <ErrorState error={pages.error} onRetry={() => void pages.refetch()} />
            </div>
          ) : ordered.length === 0 ? (
            <EmptyState title={t('emptyTitle')} text={t('emptyText')} action={canEdit ? addButton : null} />
          ) : (
            <ol className={styles.messages} aria-labelledby="pages-title">
              {ordered.map((page, index) => {
                const title = pageTitle(page, t('untitled', { n: index + 1 }));
                const dragProps = canEdit
                  ? {
                      draggable: true,
                      onDragStart: (event: DragEvent<HTMLLIElement>) => {
                        event.dataTransfer.effectAllowed = 'move';
                        event.dataTransfer.setData('text/plain', page.id);
                        setDragging(page.id);
                      },
                      onDragOver: (event: DragEvent<HTMLLIElement>) => {
                        if (!dragging) return;
                        event.preventDefault();
                        event.dataTransfer.dropEffect = 'move';
                        setOver(page.id);
                      },
                      onDragLeave: () => {
                        setOver((current) => (current === page.id ? null : current));
                      },
                      onDrop: (event: DragEvent<HTMLLIElement>) => {
                        event.preventDefault();
                        const from = ordered.findIndex((item) => item.id === dragging);
                        setDragging(null);
                        setOver(null);
                        if (from >= 0) move(from, index);
                      },
                      onDragEnd: () => {
                        setDragging(null);
                        setOver(null);
                      },
                    }
                  : {};
                return (
                  <li
                    key={page.id}
                    className={styles.pageItem}
                    data-dragging={dragging === page.id || undefined}
                    data-over={(over === page.id && dragging !== page.id) || undefined}
                    {...dragProps}
                  >
                    {canEdit ? (
                      <span className={styles.handle} title={t('dragHandle')} aria-hidden="true">
                        ⠿
                      </span>
                    ) : null}
                    <span className={styles.position} aria-hidden="true">
                      {index + 1}
                    </span>
                    <div className={styles.pageMain}>
                      <span className={styles.pageTitle}>
                        <Link
                          to="/funnels/$funnelId/pages/$pageId"
                          params={{ funnelId, pageId: page.id }}
                          aria-label={t('pageLabel', { n: index + 1, title })}
                        >
                          {title}
                        </Link>
                      </span>
                      <span className={styles.pageMeta}>
                        {page.layout === 'vsl' ? t('layoutVsl') : t('layoutLanding')} ·{' '}
                        {t('buttonAfter', { time: formatButtonTime(page.buttonTime) })}
                      </span>
                    </div>
                    <div className={styles.pageActions}>
                      {canEdit ? (
                        <>
                          <Button
                            size="small"
                            variant="ghost"
                            aria-label={t('moveUp', { title })}
                            disabled={index === 0 || reorder.isPending}
                            onClick={() => {
                              move(index, index - 1);
                            }}
                          >
                            ↑
                          </Button>
                          <Button
                            size="small"
                            variant="ghost"
                            aria-label={t('moveDown', { title })}
                            disabled={index === ordered.length - 1 || reorder.isPending}
                            onClick={() => {
                              move(index, index + 1);
                            }}
                          >
                            ↓
                          </Button>
                        </>
                      ) : null}
                      {canEdit ? (
                        <PreviewButton pageId={page.id} label={t('previewLabel', { title })} />
                      ) : null}
                      <Link
                        to="/funnels/$funnelId/pages/$pageId"
                        params={{ funnelId, pageId: page.id }}
                        className={buttonClass('secondary', 'small')}
                        aria-label={t('editLabel', { title })}
                      >
                        {t('edit')}
                      </Link>
                      {canEdit ? <PageActions funnelId={funnelId} page={page} title={title} /> : null}
                    </div>
                  </li>
                );
              })}
            </ol>
          )}
        </Card>
      </Stack>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}

function PageActions({ funnelId, page, title }: { funnelId: string; page: Page; title: string }) {
  const t = useMessages(pagesMessages);
  const notify = useToast();
  const failureMessage = useFailureMessage();
  const queryClient = useQueryClient();
  const duplicate = useMutation({
    mutationFn: () => api(ROUTE_PATHS.pages.duplicate, { params: { id: page.id } }),
    onSuccess: async () => {
      notify(t('duplicated'));
      await queryClient.invalidateQueries({ queryKey: funnelKeys.one(funnelId) });
    },
    onError: (error) => {
      notify(failureMessage(error), 'error');
    },
  });
  return (
    <>
      <Button
        size="small"
        variant="ghost"
        busy={duplicate.isPending}
        aria-label={t('duplicateLabel', { title })}
        onClick={() => {
          duplicate.mutate();
        }}
      >
        {t('duplicate')}
      </Button>
      <ConfirmDialog
        trigger={
          <Button size="small" variant="ghost" aria-label={t('deleteLabel', { title })}>
            {t('delete')}
          </Button>
        }
        title={t('deleteTitle', { title })}
        description={t('deleteText')}
        confirmLabel={t('delete')}
        onConfirm={async () => {
          await api(ROUTE_PATHS.pages.remove, { params: { id: page.id } });
          queryClient.setQueryData<Page[]>(funnelKeys.pages(funnelId), (items) =>
            items?.filter((item) => item.id !== page.id),
          );
          queryClient.removeQueries({ queryKey: funnelKeys.page(page.id) });
          notify(t('deleted'));
          await queryClient.invalidateQueries({ queryKey: funnelKeys.one(funnelId) });
        }}
      />
    </>
  );
}

/**
 * Creates a preview link of the page (an editor's act on the server, so shown to editors only) and opens it in a new tab (no opener); the link also stays
 * beside the button, for a browser that blocked the new tab.
 */
export function PreviewButton({ pageId, label, text }: { pageId: string; label?: string; text?: string }) {
  const t = useMessages(pagesMessages);
  const formatDate = useFormatDate();
  const [preview, setPreview] = useState<PreviewCreated | null>(null);
  const create = useMutation({
    mutationFn: () => api(ROUTE_PATHS.previews.create, { params: { id: pageId }, body: {} }),
    onSuccess: (created) => {
      setPreview(created);
      window.open(created.url, '_blank', 'noopener,noreferrer');
    },
  });
  return (
    <>
      <Button
        size="small"
        busy={create.isPending}
        aria-label={label}
        onClick={() => {
          create.mutate();
        }}
      >
        {text ?? t('preview')}
      </Button>
      {create.isError ? <FormAlert error={create.error} /> : null}
      {preview ? (
        <span className={styles.previewLink} role="status">
          {t('previewReady', { date: formatDate(preview.expiresAt, true) })}{' '}
          <a href={preview.url} target="_blank" rel="noopener noreferrer">
            {t('previewOpen')}
          </a>
        </span>
      ) : null}
    </>
  );
}
