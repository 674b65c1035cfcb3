import { InputBase } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import { stripDocument } from '@portal/domain';
import { useLayoutEffect, useRef } from 'react';
import { caretAfterChars, formatCpfCnpjInput } from './cpfCnpjInput';
// A type only: react-imask stays out of /login's download.
import type { MaskedTextProps } from './MaskedInput';

/**
 * The CPF/CNPJ field without an input-mask library: /login's first download stays small.
 * Same behaviour as MaskedInput with cpfCnpjMask (masks.ts), caret kept in place on edits.
 */
export function CpfCnpjInput({ value, onChange, inputRef, ...rest }: MaskedTextProps) {
  const ownRef = useRef<HTMLInputElement>(null);
  const ref = useMergedRef(ownRef, inputRef);
  const caret = useRef<number | null>(null);

  // Re-formatting moves the caret to the end; put it back after the same letter/digit.
  useLayoutEffect(() => {
    const input = ownRef.current;
    const at = caret.current;
    caret.current = null;
    if (input && at !== null && input.ownerDocument.activeElement === input) input.setSelectionRange(at, at);
  }, [value]);

  return (
    <InputBase
      {...rest}
      ref={ref}
      value={value}
      onChange={(event) => {
        const raw = event.currentTarget.value;
        const before = stripDocument(raw.slice(0, event.currentTarget.selectionStart ?? raw.length)).length;
        const next = formatCpfCnpjInput(raw);
        caret.current = caretAfterChars(next, before);
        onChange(next);
      }}
    />
  );
}
