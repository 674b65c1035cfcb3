import { FLEET_ROLES, type FleetRole } from '@portal/domain';

/**
 * Every key the web app keeps in localStorage (founding decisions 2, 5, 6), in one place.
 * Reads never throw: a blocked or corrupted storage reads as "nothing stored".
 */

/** The session's token; the prerendered pages' first script reads it too (getToken, early-paint/scripts/boot.ts). */
const TOKEN_KEY = 'token';

/** Decision 77: the company account chosen (StoredActingAccount), read by another tab's 'storage' event too. */
export const ACTING_ACCOUNT_KEY = 'conta_em_uso';

const STORAGE_KEYS = {
  token: TOKEN_KEY,
  userData: 'user_data',
  termsFlag: 'aceite_termo',
  buyValue: 'comprar_saldo_valor',
  buyPix: 'comprar_saldo_pix',
  buyFormVisible: 'comprar_saldo_form_visivel',
  pendingIntents: 'intencoes_pendentes',
  zoneDataCheck: 'fuso_sp_verificado',
  actingAccount: ACTING_ACCOUNT_KEY,
} as const;

export interface StoredUser {
  id: number;
  name: string;
  cpfCnpj: string;
}

/** 'aceito': terms accepted; 'inexistente': no decision on the current version yet. */
export type TermsFlag = 'aceito' | 'inexistente';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Private mode or a full storage: the session simply does not survive a reload.
  }
}

function remove(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // ignore
  }
}

export function getToken(): string | null {
  const token = read(TOKEN_KEY);
  return token ? token : null;
}

export function setToken(token: string): void {
  write(STORAGE_KEYS.token, token);
}

export function removeToken(): void {
  remove(STORAGE_KEYS.token);
}

export function getUser(): StoredUser | null {
  const raw = read(STORAGE_KEYS.userData);
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as StoredUser).id === 'number' &&
      typeof (value as StoredUser).name === 'string' &&
      typeof (value as StoredUser).cpfCnpj === 'string'
    ) {
      const { id, name, cpfCnpj } = value as StoredUser;
      return { id, name, cpfCnpj };
    }
  } catch {
    // fall through
  }
  return null;
}

const userListeners = new Set<() => void>();

/** Told when the stored driver changes (a corrected name): the header's greeting reads it again. */
export function subscribeUser(listener: () => void): () => void {
  userListeners.add(listener);
  return () => userListeners.delete(listener);
}

export function setUser(user: StoredUser): void {
  const { id, name, cpfCnpj } = user;
  write(STORAGE_KEYS.userData, JSON.stringify({ id, name, cpfCnpj }));
  for (const listener of userListeners) listener();
}

export function getTermsFlag(): TermsFlag | null {
  const value = read(STORAGE_KEYS.termsFlag);
  return value === 'aceito' || value === 'inexistente' ? value : null;
}

export function setTermsFlag(flag: TermsFlag): void {
  write(STORAGE_KEYS.termsFlag, flag);
}

/**
 * Decision 77: the company account the signed-in person chose in the header's switch (GET
 * /api/contas), whose id every authenticated call sends in X-Conta; absent, their own account. It
 * carries the person's id: another person signing in on this phone never inherits it; clearSession
 * (sign-out, any 401) forgets it.
 */
export interface StoredActingAccount {
  /** The signed-in person who chose it (StoredUser.id). */
  person: number;
  /** The company's account id, sent in X-Conta. */
  id: number;
  name: string;
  /** The company's CNPJ, masked. */
  document: string;
  role: FleetRole;
}

const isFleetRole = (value: unknown): value is FleetRole => (FLEET_ROLES as readonly unknown[]).includes(value);

/** The stored choice as text (the prerendered pages' first script only asks whether there is one). */
export function getActingAccountText(): string | null {
  // By its own name: the prerendered pages' first script reads it too, without the whole table.
  return read(ACTING_ACCOUNT_KEY);
}

/** The stored choice, when it is the signed-in person's and well formed; null: their own account. */
export function parseActingAccount(text: string | null, personId: number | undefined): StoredActingAccount | null {
  if (!text || personId === undefined) return null;
  try {
    const value = JSON.parse(text) as Partial<Record<keyof StoredActingAccount, unknown>> | null;
    if (
      value &&
      value.person === personId &&
      typeof value.id === 'number' &&
      typeof value.name === 'string' &&
      typeof value.document === 'string' &&
      isFleetRole(value.role)
    ) {
      return { person: value.person, id: value.id, name: value.name, document: value.document, role: value.role };
    }
  } catch {
    // fall through
  }
  return null;
}

/** The signed-in person's chosen company, or null (their own account). */
export function getActingAccount(): StoredActingAccount | null {
  return parseActingAccount(getActingAccountText(), getUser()?.id);
}

const actingAccountListeners = new Set<() => void>();

/** Told when the chosen account changes (the header's line, the menus, the X-Conta of the next calls). */
export function subscribeActingAccount(listener: () => void): () => void {
  actingAccountListeners.add(listener);
  return () => actingAccountListeners.delete(listener);
}

/** Tells the listeners the choice changed (here, or in another tab of this browser). */
export function notifyActingAccount(): void {
  for (const listener of actingAccountListeners) listener();
}

/** Keeps the chosen company; null goes back to the person's own account. */
export function setActingAccount(account: StoredActingAccount | null): void {
  if (account) {
    const { person, id, name, document, role } = account;
    write(STORAGE_KEYS.actingAccount, JSON.stringify({ person, id, name, document, role }));
  } else remove(STORAGE_KEYS.actingAccount);
  notifyActingAccount();
}

/** Buy-balance flow (founding decision 6). The Pix data is stored as JSON by its screen. */
export function getBuyValue(): string | null {
  return read(STORAGE_KEYS.buyValue);
}

export function setBuyValue(value: string): void {
  write(STORAGE_KEYS.buyValue, value);
}

export function getBuyPix<T = unknown>(): T | null {
  const raw = read(STORAGE_KEYS.buyPix);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function setBuyPix(value: unknown): void {
  write(STORAGE_KEYS.buyPix, JSON.stringify(value));
}

export function getBuyFormVisible(): boolean {
  return read(STORAGE_KEYS.buyFormVisible) !== 'false';
}

export function setBuyFormVisible(visible: boolean): void {
  write(STORAGE_KEYS.buyFormVisible, String(visible));
}

export function clearBuyBalance(): void {
  remove(STORAGE_KEYS.buyValue);
  remove(STORAGE_KEYS.buyPix);
  remove(STORAGE_KEYS.buyFormVisible);
}

/**
 * Calls that move money or change state whose answer was lost (idempotency.ts): intent digest ->
 * the Idempotency-Key sent and when. They belong to the session: clearSession forgets them.
 */
export type PendingIntents = Record<string, { key: string; at: number }>;

export function getPendingIntents(): PendingIntents {
  const raw = read(STORAGE_KEYS.pendingIntents);
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const intents: PendingIntents = {};
    for (const [intent, entry] of Object.entries(value as Record<string, unknown>)) {
      const { key, at } = (entry ?? {}) as { key?: unknown; at?: unknown };
      if (typeof key === 'string' && typeof at === 'number') intents[intent] = { key, at };
    }
    return intents;
  } catch {
    return {};
  }
}

export function setPendingIntents(intents: PendingIntents): void {
  if (Object.keys(intents).length === 0) remove(STORAGE_KEYS.pendingIntents);
  else write(STORAGE_KEYS.pendingIntents, JSON.stringify(intents));
}

/**
 * Issue 25: the driver who turned notifications on in this browser. It belongs to the device, not to
 * the session, so clearSession leaves it: a driver signing in again after a 401 keeps the
 * notifications they turned on; anyone else signing in ends them. 'Sair' and 'Desativar' remove it.
 */
const PUSH_OWNER_KEY = 'notificacoes_motorista';
/** The subscription's address the server was last given: a different one now was renewed by the browser. */
const PUSH_ENDPOINT_KEY = 'notificacoes_endereco';

export function getPushOwner(): number | null {
  const raw = read(PUSH_OWNER_KEY);
  return raw && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}

export function setPushOwner(driverId: number, endpoint: string): void {
  write(PUSH_OWNER_KEY, String(driverId));
  write(PUSH_ENDPOINT_KEY, endpoint);
}

export function getPushEndpoint(): string | null {
  return read(PUSH_ENDPOINT_KEY);
}

export function removePushOwner(): void {
  remove(PUSH_OWNER_KEY);
  remove(PUSH_ENDPOINT_KEY);
}

/** Sign-out and any 401: forget the session and everything tied to it (founding decision 5). */
/** The last check of this browser's zone data for São Paulo (lib/zoneData.ts): its day and whether it read a summer time. Not the driver's data. */
export interface ZoneDataCheck {
  checkedOn: number;
  summerTime: boolean;
}

export function getZoneDataCheck(): ZoneDataCheck | null {
  const match = /^(\d+):([01])$/.exec(read(STORAGE_KEYS.zoneDataCheck) ?? '');
  return match ? { checkedOn: Number(match[1]), summerTime: match[2] === '1' } : null;
}

export function setZoneDataCheck(check: ZoneDataCheck): void {
  write(STORAGE_KEYS.zoneDataCheck, `${check.checkedOn}:${check.summerTime ? 1 : 0}`);
}

export function clearSession(): void {
  for (const key of Object.values(STORAGE_KEYS)) remove(key);
}
