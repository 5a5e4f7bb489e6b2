import {
  INVITATION_TTL_DAYS,
  InvitationCreate,
  ROLES,
  type Invitation,
  type InvitationCreated,
  type Member,
  type Role,
} from '@embudo/contracts';
import { ROUTE_PATHS } from '@embudo/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { z } from 'zod';
import { api } from '../api/api';
import { useFormatDate, useMessages } from '../i18n/i18n';
import { SESSION_KEY, useCan, useSession } from '../session/session';
import { Button } from '../ui/Button';
import { ConfirmDialog, Dialog, DialogActions } from '../ui/dialog';
import { useFailureMessage, useRoleName } from '../ui/failure';
import { Field, FormAlert, Input, Select, formStyles, useContractForm, useSubmitFailure } from '../ui/form';
import { EmptyState, ErrorState, LoadingState } from '../ui/states';
import { Badge, Card, Stack, surfaceStyles as list } from '../ui/surface';
import { useToast } from '../ui/toast';
import { RevealedSecret, useRevealOnce } from '../ui/reveal-once';
import { settingsMessages } from './messages';
import { OwnerOnlyNote } from './SettingsLayout';
import styles from './settings.module.css';

const membersKey = ['members'] as const;
const invitationsKey = ['invitations'] as const;

function useRoleHint(): (role: Role) => string {
  const t = useMessages(settingsMessages);
  return (role) =>
    t(role === 'owner' ? 'roleOwnerHint' : role === 'editor' ? 'roleEditorHint' : 'roleViewerHint');
}

export function MembersScreen() {
  const isOwner = useCan('owner');
  return (
    <Stack>
      <OwnerOnlyNote />
      <MemberList />
      {isOwner ? <PendingInvitations /> : null}
    </Stack>
  );
}

function MemberList() {
  const t = useMessages(settingsMessages);
  const isOwner = useCan('owner');
  const members = useQuery({ queryKey: membersKey, queryFn: () => api(ROUTE_PATHS.members.list, {}) });
  const [inviting, setInviting] = useState(false);
  return (
    <Card
      title={t('membersTitle')}
      description={t('membersDescription')}
      labelledBy="settings-members"
      flush
      actions={
        isOwner ? (
          <Button
            variant="primary"
            onClick={() => {
              setInviting(true);
            }}
          >
            {t('invite')}
          </Button>
        ) : null
      }
    >
      {members.isPending ? (
        <LoadingState />
      ) : members.isError ? (
        <div className={styles.note}>
          <ErrorState error={members.error} onRetry={() => void members.refetch()} />
        </div>
      ) : (
        <ul className={list.list}>
          {members.data.map((member) => (
            <MemberRow key={member.userId} member={member} />
          ))}
        </ul>
      )}
      {isOwner ? <InviteDialog open={inviting} onOpenChange={setInviting} /> : null}
    </Card>
  );
}

function MemberRow({ member }: { member: Member }) {
  const t = useMessages(settingsMessages);
  const session = useSession();
  const isOwner = useCan('owner');
  const roleName = useRoleName();
  const formatDate = useFormatDate();
  const failure = useFailureMessage();
  const notify = useToast();
  const queryClient = useQueryClient();
  const selectId = useId();
  const isSelf = member.userId === session.user.id;
  const changeRole = useMutation({
    mutationFn: (role: Role) =>
      api(ROUTE_PATHS.members.update, { params: { id: member.userId }, body: { role } }),
    onSuccess: (updated) => {
      queryClient.setQueryData<Member[]>(membersKey, (list) =>
        list?.map((m) => (m.userId === updated.userId ? updated : m)),
      );
      notify(t('roleChanged', { name: updated.name, role: roleName(updated.role) }));
      // One's own role: what the Studio shows and offers follows it.
      if (updated.userId === session.user.id) void queryClient.invalidateQueries({ queryKey: SESSION_KEY });
    },
    onError: (error) => {
      notify(failure(error), 'error');
    },
  });
  return (
    <li className={list.listItem}>
      <div className={list.listMain}>
        <span className={list.listTitle}>
          {member.name} {isSelf ? <Badge tone="accent">{t('you')}</Badge> : null}
        </span>
        <span className={list.listMeta}>
          {member.email} · {t('joined', { date: formatDate(member.joinedAt) })}
        </span>
      </div>
      <div className={list.listActions}>
        {isOwner ? (
          <>
            <label htmlFor={selectId} className="visually-hidden">
              {t('changeRoleOf', { name: member.name })}
            </label>
            <Select
              id={selectId}
              className={styles.roleSelect}
              value={member.role}
              disabled={changeRole.isPending}
              onChange={(event) => {
                changeRole.mutate(event.target.value as Role);
              }}
            >
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {roleName(role)}
                </option>
              ))}
            </Select>
            <ConfirmDialog
              trigger={
                <Button variant="secondary" size="small" aria-label={`${t('remove')}: ${member.name}`}>
                  {t('remove')}
                </Button>
              }
              title={t('removeTitle', { name: member.name })}
              description={t('removeText', { name: member.name })}
              confirmLabel={t('remove')}
              onConfirm={async () => {
                await api(ROUTE_PATHS.members.remove, { params: { id: member.userId } });
                queryClient.setQueryData<Member[]>(membersKey, (list) =>
                  list?.filter((m) => m.userId !== member.userId),
                );
                notify(t('removed', { name: member.name }));
              }}
            />
          </>
        ) : (
          <Badge>{roleName(member.role)}</Badge>
        )}
      </div>
    </li>
  );
}

/** The invitation form: the role, and an e-mail as a note for the owner ("" for none). */
const InviteForm = z.object({
  role: InvitationCreate.shape.role,
  email: z.union([z.literal(''), InvitationCreate.shape.email.unwrap().unwrap()]),
});

function InviteDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useMessages(settingsMessages);
  const roleName = useRoleName();
  const roleHint = useRoleHint();
  const queryClient = useQueryClient();
  const form = useContractForm(InviteForm, { defaultValues: { role: 'editor', email: '' } });
  const { failure, fail, clear } = useSubmitFailure(form);
  const {
    revealed: created,
    reveal,
    close,
  } = useRevealOnce<InvitationCreated>(onOpenChange, () => {
    form.reset();
    clear();
  });
  const create = useMutation({
    mutationFn: (body: InvitationCreate) => api(ROUTE_PATHS.invitations.create, { body }),
    onSuccess: (answer) => {
      reveal(answer);
      void queryClient.invalidateQueries({ queryKey: invitationsKey });
    },
    onError: fail,
  });
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={created ? t('linkCreated') : t('inviteTitle')}
      description={created ? t('linkOnce', { days: INVITATION_TTL_DAYS }) : t('inviteDescription')}
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
              create.mutate({ role: values.role, email: values.email === '' ? null : values.email });
            })(event)
          }
        >
          <Field label={t('role')} hint={roleHint(watch('role') as Role)} error={errors.role}>
            <Select {...register('role')}>
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {roleName(role)}
                </option>
              ))}
            </Select>
          </Field>
          <Field
            label={t('inviteEmail')}
            optional={t('optional')}
            hint={t('inviteEmailHint')}
            error={errors.email}
          >
            <Input type="email" autoComplete="off" {...register('email')} />
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
              {t('createLink')}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}

function PendingInvitations() {
  const t = useMessages(settingsMessages);
  const roleName = useRoleName();
  const formatDate = useFormatDate();
  const notify = useToast();
  const queryClient = useQueryClient();
  const invitations = useQuery({
    queryKey: invitationsKey,
    queryFn: () => api(ROUTE_PATHS.invitations.list, {}),
  });
  return (
    <Card
      title={t('pendingTitle')}
      description={t('pendingDescription')}
      labelledBy="settings-invitations"
      flush
    >
      {invitations.isPending ? (
        <LoadingState />
      ) : invitations.isError ? (
        <div className={styles.note}>
          <ErrorState error={invitations.error} onRetry={() => void invitations.refetch()} />
        </div>
      ) : invitations.data.length === 0 ? (
        <EmptyState icon="✉" title={t('noPending')} />
      ) : (
        <ul className={list.list}>
          {invitations.data.map((invitation: Invitation) => (
            <li key={invitation.id} className={list.listItem}>
              <div className={list.listMain}>
                <span className={list.listTitle}>{invitation.email ?? t('anyone')}</span>
                <span className={list.listMeta}>
                  {roleName(invitation.role)} · {t('expires', { date: formatDate(invitation.expiresAt) })}
                </span>
              </div>
              <div className={list.listActions}>
                <ConfirmDialog
                  trigger={
                    <Button
                      variant="secondary"
                      size="small"
                      aria-label={`${t('revoke')}: ${invitation.email ?? t('anyone')}`}
                    >
                      {t('revoke')}
                    </Button>
                  }
                  title={t('revokeInviteTitle')}
                  description={t('revokeInviteText')}
                  confirmLabel={t('revoke')}
                  onConfirm={async () => {
                    await api(ROUTE_PATHS.invitations.remove, { params: { id: invitation.id } });
                    queryClient.setQueryData<Invitation[]>(invitationsKey, (items) =>
                      items?.filter((item) => item.id !== invitation.id),
                    );
                    notify(t('inviteRevoked'));
                  }}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
