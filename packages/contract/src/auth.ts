import { z } from 'zod';
import { loginErrors, messages, normalizeName, registrationErrors, stripDocument, TEXT_MAX } from '@portal/domain';
import { endpoint } from './endpoint.js';
import { envelope, passwordText, refineWith, text } from './common.js';

export const driver = z.lazy(() => z.object({ id: z.number().int(), name: z.string(), cpfCnpj: z.string() }));
export type Driver = z.infer<typeof driver>;

export const loginRequest = z.lazy(() =>
  z
    .object({ cpfCnpj: text(TEXT_MAX.document), password: passwordText(TEXT_MAX.password) })
    .superRefine(refineWith(loginErrors))
    .transform((v) => ({ ...v, cpfCnpj: stripDocument(v.cpfCnpj) })),
);
export type LoginRequest = z.input<typeof loginRequest>;

export const loginResponse = z.lazy(() => envelope.unwrap().extend({ Sucesso: z.literal(true), Token: z.string(), Data: driver }));
export type LoginResponse = z.infer<typeof loginResponse>;

export const registrationRequest = z.lazy(() =>
  z
    .object({
      name: text(TEXT_MAX.name),
      cpfCnpj: text(TEXT_MAX.document),
      phoneNumber: text(TEXT_MAX.phone),
      password: passwordText(TEXT_MAX.password),
      password_confirmation: passwordText(TEXT_MAX.password),
      type: text(TEXT_MAX.code),
    })
    .superRefine((value, ctx) => {
      refineWith(registrationErrors)(value, ctx);
      if (value.type !== 'driver') ctx.addIssue({ code: 'custom', path: ['type'], message: messages.registration.typeInvalid });
    })
    .transform((v) => ({
      ...v,
      type: 'driver' as const,
      name: normalizeName(v.name),
      cpfCnpj: stripDocument(v.cpfCnpj),
    })),
);
export type RegistrationRequest = z.input<typeof registrationRequest>;

export const registeredUser = z.lazy(() => driver.unwrap().extend({ phoneNumber: z.string() }));
export const registrationResponse = z.lazy(() =>
  envelope.unwrap().extend({
    Sucesso: z.literal(true),
    Token: z.string(),
    User: registeredUser,
  }),
);
export type RegistrationResponse = z.infer<typeof registrationResponse>;

export const authApi = {
  login: endpoint({
    method: 'POST',
    path: '/api/tokens/login-motorista',
    auth: false,
    summary: 'Entrar com CPF/CNPJ e senha',
    body: loginRequest,
    response: loginResponse,
  }),
  logout: endpoint({
    method: 'POST',
    path: '/api/tokens/logout',
    auth: true,
    capability: 'self',
    summary: 'Encerrar a sessão (revoga o token)',
    response: envelope,
  }),
  register: endpoint({
    method: 'POST',
    path: '/api/user/create-user',
    auth: false,
    summary: 'Criar conta de motorista',
    body: registrationRequest,
    response: registrationResponse,
  }),
};
