import { Button, type ButtonProps } from '@mantine/core';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';

type NetworkButtonProps = Omit<ButtonProps, 'disabled' | 'children'> &
  Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps | 'disabled' | 'children'> & {
    children: ReactNode;
    /** Other reasons it cannot be pressed yet (the network is added here). */
    disabled?: boolean;
  };

/**
 * A button for a call that needs the network: disabled with no signal, pointing at the
 * OfflineNotice's reason (decision 36), like every action of the portal.
 */
export function NetworkButton({ disabled = false, children, ...props }: NetworkButtonProps) {
  const online = useOnline();
  return (
    <Button {...props} disabled={disabled || !online} aria-describedby={online ? undefined : OFFLINE_REASON_ID}>
      {children}
    </Button>
  );
}

type NetworkSubmitButtonProps = Omit<ButtonProps, 'disabled' | 'fullWidth' | 'children'> &
  Pick<NetworkButtonProps, 'children' | 'disabled'>;

/** A form's submit button for a call that needs the network: a NetworkButton, full width. */
export function NetworkSubmitButton(props: NetworkSubmitButtonProps) {
  return <NetworkButton type="submit" fullWidth {...props} />;
}
