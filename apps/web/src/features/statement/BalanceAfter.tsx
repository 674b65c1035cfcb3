import type { StatementTransaction } from '@portal/contract';
import { balanceAfterLabel, statementAccountName } from '@portal/domain';
import { Money } from '../../components/ui/Money';
import classes from './BalanceAfter.module.css';

/**
 * Issue 33: the balance of the row's own account right after it, and whose money the row moved,
 * named once: 'R$ 645,90 (VPO de Transportes X)'. Plain elements: ten of these render on every page.
 */
export function BalanceAfter({ row }: { row: StatementTransaction }) {
  const account = statementAccountName(row.conta.tipo, row.conta.embarcador, row.conta.rota);
  return (
    <span className={classes.balanceAfter} data-balance-after={row.conta.tipo}>
      <span className={classes.spoken}>{balanceAfterLabel(account)}: </span>
      <Money reais={row.saldoApos} fw={500} />
      <span className={classes.account} data-account={row.conta.tipo} aria-hidden>
        {account}
      </span>
    </span>
  );
}
