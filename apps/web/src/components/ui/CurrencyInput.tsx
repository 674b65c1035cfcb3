import { TextInput, type TextInputProps } from '@mantine/core';
import type { Ref } from 'react';
import { Controller, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import { formatCurrencyInput } from './currency';

interface CurrencyInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'leftSection' | 'inputMode'> {
  /** The masked text as shown ('1.234,56'), or '' when nothing was typed. */
  value: string;
  onChange: (value: string) => void;
  inputMode?: 'tel' | 'numeric' | 'decimal';
  inputRef?: Ref<HTMLInputElement>;
}

/** An amount in reais: 'R$' before it, typed like a cash register (see formatCurrencyInput). */
function CurrencyInput({ value, onChange, inputMode = 'tel', inputRef, placeholder = '0,00', ...rest }: CurrencyInputProps) {
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

type ControlledCurrencyInputProps<T extends FieldValues, N extends FieldPathByValue<T, string>, C, O> = Omit<
  CurrencyInputProps,
  'value' | 'onChange' | 'onBlur' | 'inputRef' | 'name' | 'error'
> & {
  control: Control<T, C, O>;
  /** The form's field. */
  name: N;
  /** The input's own name, when the page's form posts it under another (a prerendered form). */
  inputName?: string;
  /** Told every new value after the form is (BuyBalancePage keeps it on the phone). */
  onValueChange?: (value: string) => void;
};

/** A CurrencyInput bound to a react-hook-form field: its value, its focus and its error message. */
export function ControlledCurrencyInput<T extends FieldValues, N extends FieldPathByValue<T, string>, C, O>({
  control,
  name,
  inputName,
  onValueChange,
  ...rest
}: ControlledCurrencyInputProps<T, N, C, O>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <CurrencyInput
          {...rest}
          name={inputName ?? field.name}
          value={typeof field.value === 'string' ? field.value : ''}
          onChange={(next) => {
            field.onChange(next);
            onValueChange?.(next);
          }}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
