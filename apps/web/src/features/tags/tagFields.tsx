import { NativeSelect, TextInput, type NativeSelectProps } from '@mantine/core';
import type { Operator } from '@portal/contract';
import { AXLE_OPTIONS } from '@portal/domain';
import type { Ref } from 'react';
import { CpfCnpjInput } from '../../components/ui/CpfCnpjInput';
import { MaskedInput, type MaskOptions } from '../../components/ui/MaskedInput';

/** SPEC 5: the serial in groups of 4 digits, at most 19 characters including spaces. */
export const serialMask: MaskOptions = { mask: '0000 0000 0000 0000' };

export function SerialInput(props: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
}) {
  return (
    <MaskedInput
      label="Número da Tag"
      name="serialNumber"
      description="Os números impressos na tag, sem espaços"
      placeholder="0000 0000 0000 0000"
      inputMode="numeric"
      autoComplete="off"
      maskOptions={serialMask}
      size="md"
      {...props}
    />
  );
}

export function OperatorSelect({
  operators,
  loading,
  ...rest
}: { operators: readonly Operator[] | undefined; loading: boolean } & Omit<NativeSelectProps, 'data'>) {
  return (
    <NativeSelect
      label="Operadora"
      name="Operadora"
      size="md"
      data={[
        { value: '', label: loading ? 'Carregando...' : 'Selecione a operadora' },
        ...(operators ?? []).map((o) => ({ value: o.Cnpj, label: o.Nome })),
      ]}
      {...rest}
    />
  );
}

/** Upper-cased as typed; letters and digits (and a dash) only. */
export function PlateInput(props: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  name: string;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const { onChange, inputRef, ...rest } = props;
  return (
    <TextInput
      label="Placa do Veículo"
      placeholder="Ex.: ABC1D23"
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      maxLength={8}
      size="md"
      ref={inputRef}
      {...rest}
      onChange={(event) => onChange(event.currentTarget.value.toUpperCase().replace(/[^0-9A-Z-]/g, ''))}
    />
  );
}

export function RntrcInput(props: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const { onChange, inputRef, ...rest } = props;
  return (
    <TextInput
      label="RNTRC da ANTT"
      name="RntrcAntt"
      description="Registro do transportador na ANTT: 8 ou 9 números"
      placeholder="000000000"
      inputMode="numeric"
      autoComplete="off"
      maxLength={9}
      size="md"
      ref={inputRef}
      {...rest}
      onChange={(event) => onChange(event.currentTarget.value.replace(/\D/g, ''))}
    />
  );
}

/** CPF/CNPJ da ANTT: the transporter's document, masked like the sign-in field (alphanumeric CNPJ too). */
export function AnttDocumentInput(props: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
}) {
  return (
    <CpfCnpjInput
      label="CPF/CNPJ da ANTT"
      name="CpfCnpjAntt"
      description="O documento do transportador registrado na ANTT"
      placeholder="000.000.000-00"
      autoComplete="off"
      size="md"
      {...props}
    />
  );
}

export function AxlesSelect(props: Omit<NativeSelectProps, 'data'>) {
  return (
    <NativeSelect
      label="Eixos"
      size="md"
      data={[{ value: '', label: 'Selecione' }, ...AXLE_OPTIONS.map((n) => ({ value: String(n), label: `${n} eixos` }))]}
      {...props}
    />
  );
}

/** Alert titles in the text colour: the light yellow/grey title colours fail contrast in sunlight (and axe). */
export const readableAlert = { title: { color: 'var(--mantine-color-gray-9)' } };
