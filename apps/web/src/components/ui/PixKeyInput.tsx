import { TextInput } from '@mantine/core';
import type { PixKeyType } from '@portal/domain';
import type { FocusEventHandler, Ref } from 'react';
import { MaskedInput } from './MaskedInput';
import { pixKeyInputModes, pixKeyMasks, pixKeyPlaceholders } from './pixKey';

interface PixKeyInputProps {
  /** The key type chosen ('' until one is): it picks the mask, the keyboard and the placeholder. */
  keyType: PixKeyType | '';
  value: string;
  onChange: (value: string) => void;
  onBlur?: FocusEventHandler<HTMLInputElement>;
  inputRef?: Ref<HTMLInputElement>;
  name: string;
  label?: string;
  error?: string;
  disabled?: boolean;
  size?: 'sm' | 'md' | 'lg';
}

/**
 * The 'Chave Pix' field: masked for CPF, CNPJ and phone, plain for e-mail and random key, disabled
 * ('Escolha o tipo primeiro') until a type is chosen. A new type draws a new field (the mask changes).
 */
export function PixKeyInput({
  keyType,
  value,
  onChange,
  onBlur,
  inputRef,
  name,
  label = 'Chave Pix',
  error,
  disabled = false,
  size,
}: PixKeyInputProps) {
  const common = {
    label,
    name,
    error,
    disabled: !keyType || disabled,
    placeholder: keyType ? pixKeyPlaceholders[keyType] : 'Escolha o tipo primeiro',
    autoComplete: 'off',
    size,
  };
  const mask = keyType ? pixKeyMasks[keyType] : undefined;
  if (keyType && mask) {
    return (
      <MaskedInput
        key={keyType}
        {...common}
        maskOptions={mask}
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        inputRef={inputRef}
        inputMode={pixKeyInputModes[keyType]}
      />
    );
  }
  return (
    <TextInput
      key={keyType || 'none'}
      {...common}
      ref={inputRef}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={onBlur}
      inputMode={keyType ? pixKeyInputModes[keyType] : 'text'}
      type={keyType === 'EMAIL' ? 'email' : 'text'}
      autoCapitalize="none"
      spellCheck={false}
    />
  );
}
