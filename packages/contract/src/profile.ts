import { z } from 'zod';
import { normalizeName, phoneDigits, profileErrors, TEXT_MAX } from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, isoDateTime, passwordText, refineWith, text } from './common.js';

/** Issue 35: the driver's own data as Configurações shows it. `telefone`: the 11 national digits. */
export const driverProfile = z.lazy(() =>
  z.object({
    nome: z.string(),
    cpfCnpj: z.string(),
    telefone: z.string(),
    /** When the name or phone was last corrected; null if never. */
    alteradoEm: isoDateTime.nullable(),
  }),
);
export type DriverProfile = z.infer<typeof driverProfile>;

export const profileResponse = z.lazy(() => envelope.unwrap().extend({ Dados: driverProfile }));
export type ProfileResponse = z.infer<typeof profileResponse>;

/** The registration's rules for each field; the password confirms (never stored or logged). */
export const profileUpdateRequest = z.lazy(() =>
  z
    .object({ nome: text(TEXT_MAX.name), telefone: text(TEXT_MAX.phone), senha: passwordText(TEXT_MAX.password) })
    .superRefine(refineWith(profileErrors))
    .transform((v) => ({ ...v, nome: normalizeName(v.nome), telefone: phoneDigits(v.telefone) })),
);
export type ProfileUpdateRequest = z.input<typeof profileUpdateRequest>;

export const profileApi = {
  profile: endpoint({
    method: 'GET',
    path: '/api/motorista/dados',
    auth: true,
    capability: 'self',
    summary: 'Os dados do motorista: nome, CPF/CNPJ e telefone',
    response: profileResponse,
  }),
  updateProfile: endpoint({
    method: 'POST',
    path: '/api/motorista/dados',
    auth: true,
    capability: 'self',
    summary: 'Corrigir o nome e o telefone (a senha confirma); o CPF/CNPJ não muda',
    body: profileUpdateRequest,
    response: profileResponse,
  }),
};
