import { zodResolver } from '@hookform/resolvers/zod';
import { inviteMemberRequest } from '@portal/contract';
import type { Resolver } from 'react-hook-form';
import type { z } from 'zod';

/** What the invitation's form holds: the CPF as typed (masked) and the role chosen ('' until one is). */
export interface InviteFormInput {
  cpf: string;
  papel: string;
}
export type InviteFormValues = z.output<typeof inviteMemberRequest>;

export const emptyInviteForm: InviteFormInput = { cpf: '', papel: '' };

/** The server's 422 field names (the contract's inviteMemberRequest) are the form's own. */
export const INVITE_SERVER_FIELDS = { cpf: 'cpf', papel: 'papel' } as const;

/**
 * The contract's own rules for the invitation (inviteMemberRequest: a valid CPF, never a CNPJ, and a
 * role), each message under its field; out goes the CPF's digits. The role's '' is refused with the
 * contract's 'Escolha o papel' message.
 */
export const inviteResolver = zodResolver(inviteMemberRequest as unknown as z.ZodType<InviteFormValues, InviteFormInput>) as Resolver<
  InviteFormInput,
  unknown,
  InviteFormValues
>;
