import type { StatementTransaction } from '@portal/contract';
import { VisuallyHidden } from '@mantine/core';
import { IconTruck } from '@tabler/icons-react';
import { TintedBadge } from '../../components/ui/TintedBadge';
import classes from './VehicleMark.module.css';

/**
 * Decision 79: the vehicle a statement row was for, and the code of the cost centre it was posted
 * to: a quiet badge under the row's text ('FRT1A11 · OP-SUL'), aligned as the text is (on the right
 * in a phone's card). Read aloud as 'Veículo FRT1A11, centro de custo OP-SUL (Operação Sul)'.
 */
export function VehicleMark({ veiculo }: { veiculo: NonNullable<StatementTransaction['veiculo']> }) {
  const centre = veiculo.centroDeCusto;
  return (
    <span className={classes.mark}>
      <TintedBadge bg="gray.1" c="dark.8" Icon={IconTruck} warning={false} variant="light" size="sm" data={{ 'data-plate': veiculo.placa }}>
        <VisuallyHidden component="span">Veículo </VisuallyHidden>
        {veiculo.placa}
        {centre ? (
          <>
            <span aria-hidden> · </span>
            <VisuallyHidden component="span">, centro de custo </VisuallyHidden>
            <span data-cost-centre={centre.codigo} title={`Centro de custo ${centre.codigo} · ${centre.nome}`}>
              {centre.codigo}
            </span>
            <VisuallyHidden component="span"> ({centre.nome})</VisuallyHidden>
          </>
        ) : null}
      </TintedBadge>
    </span>
  );
}
