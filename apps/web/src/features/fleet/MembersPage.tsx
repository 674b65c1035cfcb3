import { Badge, Button, NativeSelect, Paper, Text } from '@mantine/core';
import type { Member } from '@portal/contract';
import { FLEET_ROLES, fleetRoleLabels, fleetScreens, type FleetRole } from '@portal/domain';
import { IconTrash, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { confirmAction } from '../../components/ui/confirm';
import { DataTable, isListLoading, isListNotLoaded, type DataTableColumn } from '../../components/ui/DataTable';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastFailure } from '../../components/ui/toastFailure';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { useChangeMemberRole, useRemoveMember } from './api/mutations';
import { useMembers } from './api/queries';
import { CompanyPage } from './CompanyOnly';
import classes from './FleetPages.module.css';
import { InviteMemberForm } from './InviteMemberForm';
import { MemberStateBadge } from './MemberBadges';

const t = fleetScreens.members;

const roleOptions = FLEET_ROLES.map((role) => ({ value: role, label: fleetRoleLabels[role] }));
const isFleetRole = (value: string): value is FleetRole => (FLEET_ROLES as readonly string[]).includes(value);

/** An invitation or a member who still has access: their role can change, and they can be removed. */
const isOpen = (member: Member) => member.estado === 'convidado' || member.estado === 'ativo';

/** The person's name, or 'Aguardando cadastro' while the CPF has no account. */
const nameOf = (member: Member) => member.nome ?? t.waitingSignup;

function MemberName({ member }: { member: Member }) {
  return (
    <span className={classes.memberName}>
      <Text component="span" fw={700} fs={member.nome ? undefined : 'italic'}>
        {nameOf(member)}
      </Text>
      {member.voce ? (
        <Badge variant="light" color="road" size="sm" tt="none" data-you>
          {t.you}
        </Badge>
      ) : null}
    </span>
  );
}

/** The role, as a select while it can change: a choice is sent at once, the server's Mensagem in a toast. */
function RoleSelect({ member }: { member: Member }) {
  const change = useChangeMemberRole();
  const online = useOnline();
  const [asked, setAsked] = useState<FleetRole | null>(null);
  if (!isOpen(member)) return <Text component="span">{fleetRoleLabels[member.papel]}</Text>;
  return (
    <NativeSelect
      size="md"
      aria-label={t.changeRole(nameOf(member))}
      data={roleOptions}
      value={asked ?? member.papel}
      disabled={!online || change.isPending}
      aria-describedby={online ? undefined : OFFLINE_REASON_ID}
      onChange={(event) => {
        const papel = event.currentTarget.value;
        if (!isFleetRole(papel) || papel === member.papel) return;
        setAsked(papel);
        change.mutate(
          { id: member.id, papel },
          {
            onSuccess: (answer) => toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE }),
            onError: (error) => toastFailure(error),
            onSettled: () => setAsked(null),
          },
        );
      }}
    />
  );
}

/** 'Remover' (a member) or 'Cancelar convite' (an invitation), asked first; the server's Mensagem in a toast. */
function RemoveButton({ member }: { member: Member }) {
  const remove = useRemoveMember();
  const online = useOnline();
  if (!isOpen(member)) return null;
  const invitation = member.estado === 'convidado';

  const onRemove = async () => {
    const confirmed = await confirmAction(
      invitation
        ? { title: t.cancelInvitation, message: t.cancelInvitationQuestion(member.cpf), confirmLabel: t.cancelInvitation, danger: true }
        : { title: t.removeTitle, message: t.removeQuestion(nameOf(member)), confirmLabel: t.remove, danger: true },
    );
    if (!confirmed) return;
    // A cancelled invitation leaves the list before mutate's own callbacks would run: the promise tells.
    await remove.mutateAsync(member.id).then(
      (answer) => toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE }),
      (error: unknown) => toastFailure(error),
    );
  };

  return (
    <Button
      variant="light"
      color="red"
      fullWidth
      leftSection={invitation ? <IconX size={18} aria-hidden /> : <IconTrash size={18} aria-hidden />}
      loading={remove.isPending}
      disabled={!online}
      aria-describedby={online ? undefined : OFFLINE_REASON_ID}
      aria-label={invitation ? t.cancelInvitationName(member.cpf) : t.removeName(nameOf(member))}
      onClick={() => void onRemove()}
    >
      {invitation ? t.cancelInvitation : t.remove}
    </Button>
  );
}

const columns: DataTableColumn<Member>[] = [
  { key: 'nome', header: 'Nome', unlabelledOnPhone: true, render: (member) => <MemberName member={member} /> },
  { key: 'cpf', header: t.cpf, width: 150, render: (member) => <span className="tabular-nums">{member.cpf}</span> },
  { key: 'papel', header: t.role, width: 170, render: (member) => <RoleSelect member={member} /> },
  { key: 'estado', header: t.state, width: 170, render: (member) => <MemberStateBadge estado={member.estado} /> },
  {
    key: 'placas',
    header: t.plates,
    render: (member) =>
      member.placas.length > 0 ? (
        <span className={classes.plates}>
          {member.placas.map((plate) => (
            <Badge key={plate} variant="outline" color="gray" size="md" radius="sm" tt="none" c="dark.8">
              {plate}
            </Badge>
          ))}
        </span>
      ) : (
        <Text component="span" size="sm" c="gray.7">
          {member.papel === 'motorista' ? t.noPlates : '—'}
        </Text>
      ),
  },
  { key: 'acao', header: 'Ação', width: 200, unlabelledOnPhone: true, render: (member) => <RemoveButton member={member} /> },
];

/**
 * Decision 77 /empresa/membros: the company's members and invitations (name or 'Aguardando
 * cadastro', masked CPF, role, state, plates, 'você'), the invitation's form, each role changed with
 * its select and each access ended with 'Remover' (or 'Cancelar convite'), asked first. Only for
 * whoever manages the company's members (CompanyPage).
 */
export function MembersPage() {
  return (
    <CompanyPage title={t.title} subtitle={t.subtitle}>
      <Members />
    </CompanyPage>
  );
}

function Members() {
  const { members, failure } = useMembers();
  return (
    <>
      <OfflineNotice updatedAt={members.dataUpdatedAt} />
      <InviteMemberForm />
      <Paper component="section" aria-label={t.listLabel} withBorder shadow="xs" p={{ base: 'xs', sm: 'md' }} radius="lg">
        <DataTable
          columns={columns}
          rows={members.data?.Membros}
          getRowKey={(member) => member.id}
          loading={isListLoading(members)}
          notLoaded={isListNotLoaded(members)}
          emptyText={t.empty}
          failure={failure && { message: t.failed, retrying: failure.retrying, onRetry: failure.retry }}
        />
      </Paper>
    </>
  );
}
