import { MaskedInput, type MaskedTextProps } from './MaskedInput';
import { phoneMask } from './masks';

/** 'Telefone': DDD and nine digits, shaped '(00) 00000-0000' as typed (registration, 'Seus dados'). */
export function PhoneInput(props: Omit<MaskedTextProps, 'label' | 'placeholder' | 'autoComplete'>) {
  return (
    <MaskedInput
      label="Telefone"
      maskOptions={phoneMask}
      autoComplete="tel-national"
      inputMode="tel"
      placeholder="(00) 00000-0000"
      {...props}
    />
  );
}
