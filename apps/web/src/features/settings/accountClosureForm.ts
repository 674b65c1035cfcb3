import { closureRequest } from '@portal/contract';
import { z } from 'zod';

/** 'Encerrar conta' over what was typed and ticked: the contract's rules, each message under its field. */
export const accountClosureForm = z.object({ senha: z.string(), confirmacao: z.boolean() }).pipe(closureRequest);
export type AccountClosureFormInput = z.input<typeof accountClosureForm>;
export type AccountClosureFormValues = z.output<typeof accountClosureForm>;
