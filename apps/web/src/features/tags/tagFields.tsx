import { NativeSelect, TextInput, type NativeSelectProps } from '@mantine/core';
import type { Operator, VehicleBrand } from '@portal/contract';
import { AXLE_OPTIONS, formatSerial, messages } from '@portal/domain';
import type { ChangeEvent } from 'react';
import { useController, type ControllerFieldState, type FieldValues, type UseControllerProps } from 'react-hook-form';
import { CpfCnpjInput } from '../../components/ui/CpfCnpjInput';
import { MaskedInput, type MaskOptions } from '../../components/ui/MaskedInput';

/** spec §5: the serial in groups of 4 digits, at most 19 characters including spaces. */
const serialMask: MaskOptions = { mask: '0000 0000 0000 0000' };
const PLATE_MAX_LENGTH = 8;
const RNTRC_MAX_DIGITS = 9;

/** The tag forms' fields: each one bound to a react-hook-form field by control and name. */
type FieldProps<T extends FieldValues> = UseControllerProps<T>;

/** A field's message; the server may send several, one per line. */
function errorOf(fieldState: ControllerFieldState) {
  const message = fieldState.error?.message;
  return message ? <span style={{ whiteSpace: 'pre-line' }}>{message}</span> : undefined;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** Binds a text input or select; `clean` shapes what is typed or pasted before the form keeps it. */
function useBoundInput<T extends FieldValues>(props: FieldProps<T>, clean: (value: string) => string = (value) => value) {
  const { field, fieldState } = useController(props);
  return {
    ...field,
    value: text(field.value),
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => field.onChange(clean(event.currentTarget.value)),
    error: errorOf(fieldState),
  };
}

/** Binds an input that reports its (masked) text itself, as MaskedInput and CpfCnpjInput do. */
function useBoundMaskedInput<T extends FieldValues>(props: FieldProps<T>) {
  const { field, fieldState } = useController(props);
  return {
    name: field.name,
    value: text(field.value),
    onChange: field.onChange,
    onBlur: field.onBlur,
    inputRef: field.ref,
    error: errorOf(fieldState),
  };
}

export function SerialField<T extends FieldValues>(props: FieldProps<T>) {
  return (
    <MaskedInput
      label={messages.tag.labels.serial}
      description="Os números impressos na tag; os espaços entram sozinhos"
      placeholder="0000 0000 0000 0000"
      inputMode="numeric"
      autoComplete="off"
      maskOptions={serialMask}
      size="md"
      {...useBoundMaskedInput(props)}
    />
  );
}

/** CPF/CNPJ da ANTT: the transporter's document, masked like the sign-in field (alphanumeric CNPJ too). */
export function AnttDocumentField<T extends FieldValues>(props: FieldProps<T>) {
  return (
    <CpfCnpjInput
      label={messages.tag.labels.anttDocument}
      description="O documento do transportador registrado na ANTT"
      placeholder="000.000.000-00"
      autoComplete="off"
      size="md"
      {...useBoundMaskedInput(props)}
    />
  );
}

/** Upper-cased as typed; letters and digits (and a dash) only, cut after cleaning so a pasted 'abc 1d23' keeps its last digit. */
export function PlateField<T extends FieldValues>(props: FieldProps<T>) {
  const input = useBoundInput(props, (value) =>
    value
      .toUpperCase()
      .replace(/[^0-9A-Z-]/g, '')
      .slice(0, PLATE_MAX_LENGTH),
  );
  return (
    <TextInput
      label="Placa do Veículo"
      placeholder="Ex.: ABC1D23"
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      size="md"
      {...input}
    />
  );
}

export function RntrcField<T extends FieldValues>(props: FieldProps<T>) {
  const input = useBoundInput(props, (value) => value.replace(/\D/g, '').slice(0, RNTRC_MAX_DIGITS));
  return (
    <TextInput
      label={messages.tag.labels.rntrc}
      description="Registro do transportador na ANTT: 8 ou 9 números"
      placeholder="000000000"
      inputMode="numeric"
      autoComplete="off"
      size="md"
      {...input}
    />
  );
}

/** spec §5 'Replace tag': letters or digits in groups of 4 as typed (the new serial may carry letters). */
export function NewSerialField<T extends FieldValues>(props: FieldProps<T>) {
  const input = useBoundInput(props, formatSerial);
  return (
    <TextInput
      label="Número da nova Tag"
      description="Letras e números da nova tag; os espaços entram sozinhos"
      placeholder="0000 0000 0000 0000"
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      size="md"
      data-autofocus
      {...input}
    />
  );
}

function SelectField<T extends FieldValues>({ label, data, ...props }: FieldProps<T> & { label: string; data: NativeSelectProps['data'] }) {
  return <NativeSelect label={label} size="md" data={data} {...useBoundInput(props)} />;
}

export function OperatorField<T extends FieldValues>({
  operators,
  loading,
  ...props
}: FieldProps<T> & { operators: readonly Operator[] | undefined; loading: boolean }) {
  const data = [
    { value: '', label: loading ? 'Carregando...' : 'Selecione a operadora' },
    ...(operators ?? []).map((o) => ({ value: o.Cnpj, label: o.Nome })),
  ];
  return <SelectField label={messages.tag.labels.operator} data={data} {...props} />;
}

/** 2 to 20 axles; the value stays the select's text, the contract reads it as a number. */
export function AxlesField<T extends FieldValues>(props: FieldProps<T>) {
  const data = [{ value: '', label: 'Selecione' }, ...AXLE_OPTIONS.map((n) => ({ value: String(n), label: `${n} eixos` }))];
  return <SelectField label="Eixos" data={data} {...props} />;
}

export function ModelField<T extends FieldValues>({
  brands,
  loading,
  ...props
}: FieldProps<T> & { brands: readonly VehicleBrand[] | undefined; loading: boolean }) {
  const data = [
    { value: '', label: loading ? 'Carregando...' : 'Selecione o modelo' },
    ...(brands ?? []).map((brand) => ({
      group: brand.brand,
      items: brand.modelos.map((m) => ({ value: m.modelId, label: m.modelName })),
    })),
  ];
  return <SelectField label={messages.tag.labels.model} data={data} {...props} />;
}
