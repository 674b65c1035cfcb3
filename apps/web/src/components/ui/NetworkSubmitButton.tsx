import { Button, type ButtonProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';

interface NetworkSubmitButtonProps extends Omit<ButtonProps, 'disabled' | 'fullWidth' | 'children'> {
  children: ReactNode;
  /** Other reasons it cannot be sent yet (the network is added here). */
  disabled?: boolean;
}

/**
 * A form's submit button for a call that needs the network: full width, and disabled with no
 * signal, pointing at the OfflineNotice's reason (decision 36), like every action of the portal.
 */
export function NetworkSubmitButton({ disabled = false, children, ...props }: NetworkSubmitButtonProps) {
  const online = useOnline();
  return (
    <Button type="submit" fullWidth {...props} disabled={disabled || !online} aria-describedby={online ? undefined : OFFLINE_REASON_ID}>
      {children}
    </Button>
  );
}
