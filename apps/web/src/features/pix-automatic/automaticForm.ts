import { zodResolver } from '@hookform/resolvers/zod';
import { pixAutomaticRequest } from '@portal/contract';
import { centsToReais, parseBrlInput, pixAutomaticInputError, pixAutomaticMessages } from '@portal/domain';
import type { FieldValues, Resolver } from 'react-hook-form';
import { z } from 'zod';

/** What was typed ('1.234,56') under the domain's rule for the top-up's value; out comes the wire's reais. */
const typedValue = () =>
  z.string().transform((text, ctx) => {
    const message = pixAutomaticInputError(text);
    const cents = parseBrlInput(text);
    if (message !== null || cents === null) {
      ctx.addIssue({ code: 'custom', message: message ?? pixAutomaticMessages.valueInvalid });
      return z.NEVER;
    }
    return centsToReais(cents);
  });

/**
 * The new top-up's form: the value as typed, then the contract's own request (its frequency and
 * its message) checks what is sent. Built at first use (decision 42: the contract is lazy).
 */
export const automaticForm = () => z.object({ valor: typedValue(), frequencia: z.string() }).pipe(pixAutomaticRequest.unwrap());
export type AutomaticFormInput = z.input<ReturnType<typeof automaticForm>>;
export type AutomaticFormValues = z.output<ReturnType<typeof automaticForm>>;

/** 'Alterar valor': the value alone. */
export const valueForm = () => z.object({ valor: typedValue() });
export type ValueFormInput = z.input<ReturnType<typeof valueForm>>;
export type ValueFormValues = z.output<ReturnType<typeof valueForm>>;

/**
 * A form's resolver whose schema is built at the first check (the first submit), not with the page:
 * the screen's first render after its data arrives stays short (Lighthouse's blocking time).
 */
export function lazyResolver<In extends FieldValues, Out>(build: () => z.ZodType<Out, In>): Resolver<In, unknown, Out> {
  let resolver: Resolver<In, unknown, Out> | null = null;
  return (values, context, options) => {
    resolver ??= zodResolver(build()) as Resolver<In, unknown, Out>;
    return resolver(values, context, options);
  };
}
