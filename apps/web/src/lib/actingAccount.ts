/**
 * Decision 77, fleets: the account the signed-in person acts on. Their own, or a company's they are
 * an active member of, chosen in the header's switch and kept on the phone (storage.ts); every
 * authenticated call then carries its id in X-Conta (api.ts). What the screens offer follows the
 * role the person has there (the domain's roleAllows over each call's capability in the contract);
 * the server decides the same way and stays the authority: this only hides what it would refuse.
 */
import { api, type ActingAccount, type Endpoint } from '@portal/contract';
import { roleAllows, stripDocument, type ActingRole } from '@portal/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { request } from './api';
import { wipeOfflineData } from './persist';
import { queryClient } from './queryClient';
import {
  ACTING_ACCOUNT_KEY,
  getActingAccountText,
  getUser,
  notifyActingAccount,
  parseActingAccount,
  setActingAccount,
  subscribeActingAccount,
  type StoredActingAccount,
} from './storage';
import { useStoredValue } from './useStoredValue';

/** GET /api/contas: the person's own account and each company's they may use ('self': the same whatever account is chosen). */
export const actingAccountsQueryKey = ['pessoa', 'contas'] as const;

const actingAccountsQuery = queryOptions({
  queryKey: actingAccountsQueryKey,
  queryFn: ({ signal }) => request(api.actingAccounts, { signal }),
  staleTime: 60_000,
});

/** The accounts the person may use; a failure only leaves the switch out (the line still says whose account is shown). */
export const useActingAccounts = () => useQuery(actingAccountsQuery);

let snapshot: { text: string | null; person: number | undefined; account: StoredActingAccount | null } | null = null;

/** The stored choice, the same object while it does not change (useSyncExternalStore compares snapshots). */
function readChoice(): StoredActingAccount | null {
  const text = getActingAccountText();
  const person = getUser()?.id;
  if (snapshot?.text !== text || snapshot.person !== person) snapshot = { text, person, account: parseActingAccount(text, person) };
  return snapshot.account;
}

/** Another tab of this browser chose another account: this one forgets what it read for the old one. */
function onOtherTab(event: StorageEvent): void {
  if (event.key !== ACTING_ACCOUNT_KEY) return;
  forgetAccountData();
  notifyActingAccount();
}

let subscribers = 0;

function subscribe(onChange: () => void): () => void {
  const unsubscribe = subscribeActingAccount(onChange);
  if (subscribers++ === 0) window.addEventListener('storage', onOtherTab);
  return () => {
    unsubscribe();
    if (--subscribers === 0) window.removeEventListener('storage', onOtherTab);
  };
}

/** The company chosen, or null on the person's own account (and while a prerendered page hydrates). */
export function useChosenCompany(): StoredActingAccount | null {
  return useStoredValue(readChoice, null, subscribe);
}

/** The person's own login is a company's (a CNPJ): their own account has members too. */
const ownIsCompany = () => stripDocument(getUser()?.cpfCnpj ?? '').length === 14;

/** What the screens need of the account in use. */
export interface ActingView {
  company: StoredActingAccount | null;
  role: ActingRole;
  /** A company's account (one chosen, or the person's own CNPJ login): it has members. */
  isCompany: boolean;
}

export function useActing(): ActingView {
  const company = useChosenCompany();
  const ownCompany = useStoredValue(ownIsCompany, false);
  return { company, role: company?.role ?? 'titular', isCompany: company !== null || ownCompany };
}

/** Whether `role` may make this call: the capability the contract names for it (none: the person's own, 'self'). */
export function mayCall(role: ActingRole, endpoint: Pick<Endpoint, 'capability'>): boolean {
  return roleAllows(role, endpoint.capability ?? 'self');
}

/** Whether the role in use may make every one of these calls (a screen's read and the change it offers). */
export function useMayCall(...endpoints: Pick<Endpoint, 'capability'>[]): boolean {
  const { role } = useActing();
  return endpoints.every((endpoint) => mayCall(role, endpoint));
}

/**
 * Forgets every read of the account left (in memory and kept on the phone): the screens read the new
 * one's. The person's list of accounts stays (it is theirs, whichever account is in use).
 */
function forgetAccountData(): void {
  const accounts = queryClient.getQueryData(actingAccountsQueryKey);
  void wipeOfflineData();
  if (accounts) queryClient.setQueryData(actingAccountsQueryKey, accounts);
}

/** Acts on `account` from now on (null or the person's own: their own account); every read starts again. */
export function actOnAccount(account: ActingAccount | null): void {
  const person = getUser()?.id;
  forgetAccountData();
  if (!account || account.propria || person === undefined || account.papel === 'titular') setActingAccount(null);
  else setActingAccount({ person, id: account.id, name: account.nome, document: account.documento, role: account.papel });
}

/**
 * The server's list is the truth: a company chosen that is no longer in it, or where the person's role
 * changed, is left or taken again with the new role (its reads forgotten). `onEnded` says why the
 * person is back on their own account.
 */
export function useFollowActingAccounts(accounts: readonly ActingAccount[] | undefined, onEnded: () => void): void {
  const company = useChosenCompany();
  useEffect(() => {
    if (!accounts || !company) return;
    const listed = accounts.find((account) => account.id === company.id && !account.propria);
    if (!listed) {
      actOnAccount(null);
      onEnded();
    } else if (listed.papel !== company.role || listed.nome !== company.name) actOnAccount(listed);
  }, [accounts, company, onEnded]);
}
