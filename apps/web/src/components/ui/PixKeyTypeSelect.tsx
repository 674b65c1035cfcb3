import { NativeSelect } from '@mantine/core';
import type { ChangeEvent, FocusEventHandler, Ref } from 'react';
import { pixKeyTypeOptions } from './pixKey';

interface PixKeyTypeSelectProps {
  name: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
  onBlur?: FocusEventHandler<HTMLSelectElement>;
  selectRef?: Ref<HTMLSelectElement>;
  error?: string;
  disabled?: boolean;
}

/** 'Tipo da Chave Pix' (spec §2: CPF, CNPJ, Telefone, E-mail, Chave Aleatória), on Sacar and in Configurações. */
export function PixKeyTypeSelect({ selectRef, ...props }: PixKeyTypeSelectProps) {
  return <NativeSelect ref={selectRef} label="Tipo da Chave Pix" size="md" data={pixKeyTypeOptions} {...props} />;
}
