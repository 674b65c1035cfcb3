import './shellStyles';
import { Box, Button, Container, Group, Text } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { api } from '@portal/contract';
import { TOAST_MS } from '@portal/domain';
import { IconLogout, IconSettings, IconTruck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, Outlet, useNavigate } from 'react-router';
import { request } from '../lib/api';
import { firstName } from '../lib/format';
import { persistOptions, wipeOfflineData } from '../lib/persist';
import { queryClient } from '../lib/queryClient';
import { clearSession, getUser } from '../lib/storage';
import { useStoredValue } from '../lib/useStoredValue';
import { OfflineDataProvider } from './OfflineDataProvider';

/** Every authenticated screen: header (app name, greeting, 'Sair'), one content column, toasts, dialogs. */
export function AuthenticatedShell() {
  const navigate = useNavigate();
  // The data kept on the phone is this driver's only (founding decision 22): another driver's is dropped.
  const [persistence] = useState(() => persistOptions(getUser()?.id));
  const [leaving, setLeaving] = useState(false);

  // Founding decision 5: revoke the session (its failure is ignored), forget it locally, go to /login.
  // Founding decision 22: with it goes the data kept for offline use.
  const logout = async () => {
    setLeaving(true);
    try {
      await request(api.logout);
    } catch {
      // The token is dropped locally anyway.
    }
    clearSession();
    await wipeOfflineData();
    await navigate('/login', { replace: true });
  };

  return (
    <OfflineDataProvider client={queryClient} persistOptions={persistence}>
      <ModalsProvider
        labels={{ confirm: 'Confirmar', cancel: 'Cancelar' }}
        modalProps={{ centered: true, closeButtonProps: { 'aria-label': 'Fechar' } }}
      >
        <Notifications position="top-right" autoClose={TOAST_MS} limit={3} zIndex={1000} />
        <Box component="header" pos="sticky" top={0} bg="road.8" c="white" style={{ zIndex: 10, boxShadow: 'var(--mantine-shadow-sm)' }}>
          <Container px="md" py={8}>
            <Group justify="space-between" wrap="nowrap" gap="sm">
              <Box style={{ minWidth: 0 }}>
                <Text
                  component={Link}
                  to="/dashboard"
                  fw={800}
                  size="md"
                  c="white"
                  style={{ display: 'inline-flex', alignItems: 'center', gap: 6, textDecoration: 'none' }}
                >
                  <IconTruck size={22} aria-hidden />
                  Portal do Motorista
                </Text>
                <Group gap="sm" wrap="nowrap">
                  <Greeting />
                  {/* Issue 12: the driver's settings, on the greeting's line (the brand row is full at 360 px). */}
                  <Text
                    component={Link}
                    to="/configuracoes"
                    size="sm"
                    c="white"
                    py={2}
                    style={{ display: 'inline-flex', alignItems: 'center', gap: 4, flexShrink: 0, textDecoration: 'underline' }}
                  >
                    <IconSettings size={16} aria-hidden />
                    Configurações
                  </Text>
                </Group>
              </Box>
              <Button
                onClick={logout}
                loading={leaving}
                variant="white"
                color="road"
                size="sm"
                leftSection={<IconLogout size={18} aria-hidden />}
              >
                Sair
              </Button>
            </Group>
          </Container>
        </Box>
        <Container component="main" px="md" py="lg" pb={0}>
          <Box pb="xl">
            <Outlet />
          </Box>
        </Container>
      </ModalsProvider>
    </OfflineDataProvider>
  );
}

/**
 * 'Olá, <first name>'. A prerendered page (early-paint/) has no name: it appears right after
 * hydration, on a line that 'Configurações' already holds, so nothing moves. Its own component:
 * the stored value differing from the prerendered one re-renders, urgently, only this line (in the
 * shell it re-rendered every screen in one long task).
 */
function Greeting() {
  const name = useStoredValue(() => firstName(getUser()?.name), '');
  if (!name) return null;
  return (
    <Text size="sm" c="road.0" truncate="end" style={{ minWidth: 0 }}>
      Olá, {name}
    </Text>
  );
}
