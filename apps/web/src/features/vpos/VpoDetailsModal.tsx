import { Button, Modal, Stack } from '@mantine/core';
import type { Vpo } from '@portal/contract';
import { formatCpfCnpj, formatSerial, messages, vpoStatusLabel } from '@portal/domain';
import type { ReactNode } from 'react';
import { DateTime } from '../../components/ui/DateTime';
import { Money } from '../../components/ui/Money';
import classes from './VpoDetailsModal.module.css';

const { fields } = messages.vpo;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={classes.field}>
      <dt className={classes.label}>{label}</dt>
      <dd className={classes.value}>{children}</dd>
    </div>
  );
}

/** spec §2 'Detalhes do VPO': read-only; every field of the VPO and 'Fechar'. */
export function VpoDetailsModal({ vpo, opened, onClose }: { vpo: Vpo | null; opened: boolean; onClose: () => void }) {
  return (
    <Modal
      opened={opened && vpo !== null}
      onClose={onClose}
      title={messages.vpo.detailsTitle}
      centered
      size={540}
      closeButtonProps={{ 'aria-label': 'Fechar detalhes do VPO' }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {vpo ? (
        <Stack gap="lg">
          <dl className={classes.list}>
            <Field label={fields.serialNumber}>
              <span className={`tabular-nums ${classes.nowrap}`}>{formatSerial(vpo.serialNumber)}</span>
            </Field>
            <Field label={fields.plate}>{vpo.PlacaVeiculo}</Field>
            <Field label={fields.shipper}>
              <span className={`tabular-nums ${classes.nowrap}`}>{formatCpfCnpj(vpo.CpfCnpjEmbarcador)}</span>
            </Field>
            <Field label={fields.value}>
              <Money reais={vpo.ValorTotalVP} />
            </Field>
            <Field label={fields.date}>
              <DateTime value={vpo.created_at} />
            </Field>
            <Field label={fields.status}>{vpoStatusLabel(vpo.Status)}</Field>
          </dl>
          <Button size="md" fullWidth onClick={onClose} data-autofocus>
            {messages.vpo.close}
          </Button>
        </Stack>
      ) : null}
    </Modal>
  );
}
