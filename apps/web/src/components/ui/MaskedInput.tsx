import { InputBase, type InputBaseProps } from '@mantine/core';
import type { FocusEventHandler, Ref } from 'react';
import { IMaskInput } from 'react-imask';

/** The react-imask options this app uses (pattern, dynamic, definitions, char preparation). */
export interface MaskOptions {
  mask: unknown;
  definitions?: Record<string, RegExp>;
  dispatch?: (appended: string, masked: DynamicMasked) => unknown;
  prepareChar?: (chars: string) => string;
  lazy?: boolean;
}

/** The part of IMask's dynamic masked value a dispatch function reads. */
export interface DynamicMasked {
  unmaskedValue: string;
  value: string;
  compiledMasks: unknown[];
}

/** A Mantine input whose text a mask shapes: what the form gives it, and what it tells the form. */
export interface MaskedTextProps extends Omit<InputBaseProps, 'onChange' | 'value'> {
  /** The masked text as shown (e.g. '529.982.247-25'). */
  value: string;
  onChange: (value: string) => void;
  onBlur?: FocusEventHandler<HTMLInputElement>;
  name?: string;
  id?: string;
  placeholder?: string;
  autoComplete?: string;
  inputMode?: 'text' | 'numeric' | 'tel' | 'email' | 'decimal';
  inputRef?: Ref<HTMLInputElement>;
  'aria-describedby'?: string;
}

interface MaskedInputProps extends MaskedTextProps {
  maskOptions: MaskOptions;
}

/** A Mantine input (label, error, description) whose text is shaped by a react-imask mask. */
export function MaskedInput({ maskOptions, value, onChange, inputRef, ...rest }: MaskedInputProps) {
  // InputBase is polymorphic; IMaskInput's generic props do not survive that typing, hence the cast.
  const Masked = IMaskInput as unknown as 'input';
  return (
    <InputBase
      component={Masked}
      {...(maskOptions as object)}
      {...rest}
      value={value}
      // IMaskInput reports the masked text through onAccept (every accepted change) and hands
      // the <input> element to inputRef (react-hook-form focuses it on errors).
      {...({ onAccept: (next: string) => onChange(next), inputRef } as object)}
    />
  );
}
