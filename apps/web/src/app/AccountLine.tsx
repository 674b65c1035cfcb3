import { Menu, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { ActingAccount } from '@portal/contract';
import { actingRoleLabel, fleetMessages, fleetRoleLabels, fleetScreens as t } from '@portal/domain';
import { IconArrowsExchange, IconCheck } from '@tabler/icons-react';
import { useCallback, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../components/ui/toast';
import { actOnAccount, useActing, useActingAccounts, useFollowActingAccounts } from '../lib/actingAccount';
import { fullName } from '../lib/format';
import { getUser, subscribeUser } from '../lib/storage';
import { useStoredValue } from '../lib/useStoredValue';
import classes from './AccountLine.module.css';

const readName = () => fullName(getUser()?.name);

/** 'Conta: <b>Transportes Demonstração Ltda</b> · Gestor', or the person's name · 'Minha conta'. */
function LineText({ name, role }: { name: string; role: string }) {
  return (
    <span className={classes.text}>
      {t.accountLabel}: <strong className={classes.name}>{name}</strong> · {role}
    </span>
  );
}

/** One account of the switch: its name, and what the person is there. */
function Choice({ title, detail, current }: { title: string; detail: string; current: boolean }) {
  return (
    <span className={classes.choice}>
      <span className={classes.choiceTitle}>
        {title}
        {current ? <VisuallyHidden> ({t.currentAccount})</VisuallyHidden> : null}
      </span>
      <span className={classes.choiceDetail}>{detail}</span>
    </span>
  );
}

/**
 * Decision 77: the header's line saying whose account every screen shows ('Conta: … · Gestor'), and,
 * for a person who is a member of a company, the switch between their own account ('Minha conta') and
 * each company's, with the role. Choosing one forgets every read (the screens read the new account's)
 * and opens the dashboard. The line keeps its 44 px row from the prerendered page on (no name is drawn
 * there, nothing moves when it appears); at 360 px a long name wraps inside it, never sideways.
 */
export function AccountLine() {
  const navigate = useNavigate();
  const { company } = useActing();
  const personName = useStoredValue(readName, '', subscribeUser);
  const accounts = useActingAccounts();
  const list = accounts.data?.Contas;
  const companies = list?.filter((account) => !account.propria) ?? [];

  const ended = useCallback(() => {
    toast.warning(fleetMessages.noAccess, { title: t.accessEndedTitle, id: 'conta-encerrada' });
    void navigate('/dashboard');
  }, [navigate]);
  useFollowActingAccounts(list, ended);

  const choose = (account: ActingAccount | null) => {
    const same = account === null || account.propria ? company === null : company?.id === account.id;
    if (same) return;
    actOnAccount(account);
    toast.info(account && !account.propria ? t.switched(account.nome) : t.switchedOwn);
    void navigate('/dashboard');
  };

  // Prerendered (no name from the phone) and hydrating: the row alone, as tall as it will be.
  if (!personName) return <div className={classes.line} />;

  const text = company ? (
    <LineText name={company.name} role={fleetRoleLabels[company.role]} />
  ) : (
    <LineText name={personName} role={t.ownAccount} />
  );
  if (companies.length === 0 && !company) {
    return (
      <div className={classes.line} data-account-line>
        {text}
      </div>
    );
  }

  // The chosen company, from the phone, while the list is on its way (or failed): 'Minha conta' is always there.
  const choices: ActingAccount[] =
    companies.length > 0 || !company
      ? companies
      : [{ id: company.id, nome: company.name, documento: company.document, papel: company.role, propria: false, empresa: true }];
  const item = (key: string | number, account: ActingAccount | null, title: string, detail: string): ReactNode => {
    const current = account === null ? company === null : company?.id === account.id;
    return (
      <Menu.Item
        key={key}
        className={classes.item}
        onClick={() => choose(account)}
        aria-current={current ? 'true' : undefined}
        rightSection={current ? <IconCheck size={20} aria-hidden /> : null}
      >
        <Choice title={title} detail={detail} current={current} />
      </Menu.Item>
    );
  };

  return (
    <div className={classes.line} data-account-line>
      {/* The header is sticky: the line never leaves the screen, so the list is never hidden for being detached from it. */}
      <Menu position="bottom-start" offset={4} shadow="md" radius="md" withinPortal hideDetached={false} returnFocus>
        <Menu.Target>
          <UnstyledButton className={classes.switch}>
            {text}
            <span className={classes.switchHint}>
              <IconArrowsExchange size={16} aria-hidden />
              {t.switchAccount}
            </span>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown className={classes.dropdown}>
          <Menu.Label>{t.switchTitle}</Menu.Label>
          {item('propria', null, t.ownAccount, personName)}
          {choices.map((account) => item(account.id, account, account.nome, `${actingRoleLabel(account.papel)} · ${account.documento}`))}
        </Menu.Dropdown>
      </Menu>
    </div>
  );
}
