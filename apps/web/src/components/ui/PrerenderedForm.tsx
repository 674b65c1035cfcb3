import type { ComponentPropsWithoutRef } from 'react';

/**
 * The form of a prerendered screen (early-paint/pages.ts). POST: submitted before any script has
 * arrived, the browser never puts its fields (a password, a CPF) in the address; the server sends
 * that POST back to the page unread, and from boot.ts on a submit is held for the app. noValidate:
 * the contract's schemas say what is wrong, in Portuguese.
 */
export function PrerenderedForm(props: Omit<ComponentPropsWithoutRef<'form'>, 'method' | 'noValidate'>) {
  return <form method="post" noValidate {...props} />;
}
