import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import type { Ref } from 'react';

/** Mantine's password input with its eye button named for a screen reader, the same in every form. */
export function PasswordField(props: PasswordInputProps & { ref?: Ref<HTMLInputElement> }) {
  return <PasswordInput visibilityToggleButtonProps={{ 'aria-label': 'Mostrar ou ocultar a senha' }} {...props} />;
}
