import { profileUpdateRequest } from '@portal/contract';
import { z } from 'zod';

/** 'Seus dados' over what was typed: the contract's own rules (the registration's for the name and phone, the password), each message under its field. */
export const profileForm = z.object({ nome: z.string(), telefone: z.string(), senha: z.string() }).pipe(profileUpdateRequest);
export type ProfileFormInput = z.input<typeof profileForm>;
export type ProfileFormValues = z.output<typeof profileForm>;
