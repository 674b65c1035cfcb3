import type { StatementAccountTotal } from '@portal/contract';
import { otherVposTotalHint, otherVposTotalLabel, statementAccountName, statementTotalsTitle } from '@portal/domain';
import { Money } from '../../components/ui/Money';
import classes from './StatementTotals.module.css';

/**
 * Issue 33: the filtered period's total per account (Saldo, Saldo em outras plataformas, each VPO),
 * one line each and never one sum across them: a shipper's VPO money is not the driver's. Past the
 * VPOs that moved last, the others' net is one line, said so under the list (decision 83). Plain
 * elements; the statement's table draws them after its rows, in the same transition.
 */
export function StatementTotals({ totals }: { totals: StatementAccountTotal[] }) {
  if (totals.length === 0) return null;
  return (
    <section className={classes.totals} aria-labelledby="extrato-totais">
      <p id="extrato-totais" className={classes.title}>
        {statementTotalsTitle}
      </p>
      <ul className={classes.list}>
        {totals.map((total) => {
          const account = total.outrosVpos
            ? otherVposTotalLabel
            : statementAccountName(total.conta.tipo, total.conta.embarcador, total.conta.rota);
          return (
            <li
              key={`${total.conta.tipo}:${total.outrosVpos ? 'outros' : (total.conta.vpoId ?? '')}`}
              className={classes.total}
              data-account-total={total.conta.tipo}
              aria-label={`${account}: total do período`}
            >
              <span className={classes.account} data-account={total.conta.tipo}>
                {account}
              </span>
              <Money reais={total.total} colorPositive fw={600} className={classes.amount} />
            </li>
          );
        })}
      </ul>
      {totals.some((total) => total.outrosVpos) ? <p className={classes.hint}>{otherVposTotalHint}</p> : null}
    </section>
  );
}
