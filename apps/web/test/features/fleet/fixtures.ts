import type { FleetRole } from '@portal/domain';
import { demoUser, mockApi, ok, signInStorage } from '../../support/utils';

/** Decision 77's fixtures: the demo person (id 7), and the company they are a member of (account 40). */
export const COMPANY_ID = 40;
export const COMPANY_NAME = 'Transportes Demonstração Ltda';
export const COMPANY_CNPJ = '12.***.***/0001-95';

export const ownAccount = {
  id: demoUser.id,
  nome: 'Maria da Silva',
  documento: '***.982.247-**',
  papel: 'titular',
  propria: true,
  empresa: false,
};

export const companyAccount = (papel: FleetRole = 'gestor') => ({
  id: COMPANY_ID,
  nome: COMPANY_NAME,
  documento: COMPANY_CNPJ,
  papel,
  propria: false,
  empresa: true,
});

/** GET /api/contas with these accounts. */
export const accounts = (...Contas: unknown[]) => ok({ Contas });

/** The company chosen in the header's switch, as the app keeps it on the phone. */
export function chooseCompanyStorage(role: FleetRole = 'gestor') {
  window.localStorage.setItem(
    'conta_em_uso',
    JSON.stringify({ person: demoUser.id, id: COMPANY_ID, name: COMPANY_NAME, document: COMPANY_CNPJ, role }),
  );
}

/** The header's line saying whose account the screen shows. */
export const accountLine = () => document.querySelector('[data-account-line]');

/** Signed in with the terms accepted, acting on the company in `role`; the server's answers beside GET /api/contas. */
export function asRole(role: FleetRole, handlers: Parameters<typeof mockApi>[0]) {
  signInStorage({ terms: 'aceito' });
  chooseCompanyStorage(role);
  return mockApi({ 'GET /api/contas': accounts(ownAccount, companyAccount(role)), ...handlers });
}

/** A text as the screen reads it (the matchers collapse the no-break space Intl writes after R$). */
export const onScreen = (text: string) => text.replace(/\s+/g, ' ');
