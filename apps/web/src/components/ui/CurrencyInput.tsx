import { TextInput, type TextInputProps } from '@mantine/core';
import type { Ref } from 'react';
import { formatCurrencyInput } from './currency';

interface CurrencyInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'leftSection' | 'inputMode'> {
  /** The masked text as shown ('1.234,56'), or '' when nothing was typed. */
  value: string;
  onChange: (value: string) => void;
  inputMode?: 'tel' | 'numeric' | 'decimal';
  inputRef?: Ref<HTMLInputElement>;
}

/** An amount in reais: 'R$' before it, typed like a cash register (see formatCurrencyInput). */
export function CurrencyInput({ value, onChange, inputMode = 'tel', inputRef, placeholder = '0,00', ...rest }: CurrencyInputProps) {
  return (
    <TextInput
      {...rest}
      ref={inputRef}
      value={value}
      onChange={(event) => onChange(formatCurrencyInput(event.currentTarget.value))}
      inputMode={inputMode}
      autoComplete="off"
      placeholder={placeholder}
      leftSection={
        <span aria-hidden style={{ fontWeight: 600, color: 'var(--mantine-color-gray-7)' }}>
          R$
        </span>
      }
      leftSectionPointerEvents="none"
      classNames={{ input: 'tabular-nums' }}
    />
  );
}
