import './shellStyles';
import { Box, Button, Container, Group, Text } from '@mantine/core';
import { api } from '@portal/contract';
import { IconLogout, IconSettings, IconTruck } from '@tabler/icons-react';
import { fleetScreens } from '@portal/domain';
import { Fragment, useEffect, useState } from 'react';
import { Link, Outlet, useNavigate } from 'react-router';
import { ConfirmDialogs } from '../components/ui/confirm';
import { toast } from '../components/ui/toast';
import { Toasts } from '../components/ui/Toasts';
import { watchPushRenewal } from '../features/auth/api/pushRenewal';
import { TermsBar } from '../features/terms/TermsBar';
import { actOnAccount, useChosenCompany } from '../lib/actingAccount';
import { request, setAccountAccessEndedHandler } from '../lib/api';
import { firstName } from '../lib/format';
import { listenForChanges } from '../lib/liveUpdates';
import { persistOptions, wipeOfflineData } from '../lib/persist';
import { queryClient } from '../lib/queryClient';
import { clearSession, getUser, subscribeUser } from '../lib/storage';
import { useStoredValue } from '../lib/useStoredValue';
import { AccountLine } from './AccountLine';
import { watchHeaderHeight } from './headerHeight';
import { OfflineDataProvider } from './OfflineDataProvider';

/**
 * Every authenticated screen: header (app name, greeting, 'Sair', the account in use), one content
 * column, toasts, dialogs. Decision 77: the screen is drawn anew for each account chosen (its key),
 * so none keeps what it read for the account before.
 */
export function AuthenticatedShell() {
  const navigate = useNavigate();
  const company = useChosenCompany();
  // The data kept on the phone is this driver's only (founding decision 22): another driver's is dropped.
  const [persistence] = useState(() => persistOptions(getUser()?.id));
  const [leaving, setLeaving] = useState(false);
  // Issue 25: a push subscription the browser renewed is saved with the session.
  useEffect(() => watchPushRenewal(), []);
  // Issue 33: a push tells the open screen what changed; it reads that again at once.
  useEffect(() => listenForChanges(queryClient), []);
  // Decision 77: the company's account chosen is no longer the person's (removed while using it): the
  // API client forgot it; here its reads go too, the server's words are said, and the dashboard opens.
  useEffect(
    () =>
      setAccountAccessEndedHandler((message) => {
        actOnAccount(null);
        toast.warning(message, { title: fleetScreens.accessEndedTitle, id: 'conta-encerrada' });
        void navigate('/dashboard');
      }),
    [navigate],
  );

  // Founding decision 5: revoke the session (its failure is ignored), forget it locally, go to /login.
  // Founding decision 22: with it goes the data kept for offline use. Issue 25: and this browser's
  // push subscription (the server drops it with the session too).
  const logout = async () => {
    setLeaving(true);
    // Loaded here, not with the shell: every signed-in page would fetch it otherwise. Never in the way of leaving.
    const pushForgotten = import('../lib/webPush').then(
      ({ forgetPushSubscription }) => forgetPushSubscription(),
      () => null,
    );
    try {
      await request(api.logout);
    } catch {
      // The token is dropped locally anyway.
    }
    await pushForgotten;
    clearSession();
    await wipeOfflineData();
    await navigate('/login', { replace: true });
  };

  return (
    <OfflineDataProvider client={queryClient} persistOptions={persistence}>
      <Toasts />
      <ConfirmDialogs />
      <Box
        component="header"
        ref={watchHeaderHeight}
        pos="sticky"
        top={0}
        bg="road.8"
        c="white"
        style={{ zIndex: 10, boxShadow: 'var(--mantine-shadow-sm)' }}
      >
        {/* Each of the two links is a 44 px row (WCAG 2.5.5's target, global.css): grown areas
              of two 26 px links one on the other would have overlapped. */}
        <Container px="md" py={0}>
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Box style={{ minWidth: 0 }}>
              <Text
                component={Link}
                to="/dashboard"
                fw={800}
                size="md"
                c="white"
                style={{ display: 'inline-flex', alignItems: 'center', gap: 6, minHeight: 44, textDecoration: 'none' }}
              >
                <IconTruck size={22} aria-hidden />
                Portal do Motorista
              </Text>
              <Group gap="sm" wrap="nowrap">
                {/* Issue 12: the driver's settings, on the greeting's line (the brand row is full at 360 px).
                      Issue 25: before the greeting, which appears after hydration: the link never moves. */}
                <Text
                  component={Link}
                  to="/configuracoes"
                  size="sm"
                  c="white"
                  style={{
                    display: 'inline-flex',
                    alignItems: 'center',
                    gap: 4,
                    flexShrink: 0,
                    minHeight: 44,
                    textDecoration: 'underline',
                  }}
                >
                  <IconSettings size={16} aria-hidden />
                  Configurações
                </Text>
                <Greeting />
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
          <AccountLine />
        </Container>
      </Box>
      <Container component="main" px="md" py="lg" pb={0}>
        <Box pb="xl">
          <Fragment key={company ? `${company.id}:${company.role}` : 'propria'}>
            <Outlet />
          </Fragment>
          {/* Issue 25: the terms where the driver is stopped, held at the foot of every screen (features/terms/TermsBar). */}
          <TermsBar />
        </Box>
      </Container>
    </OfflineDataProvider>
  );
}

/**
 * 'Olá, <first name>'. A prerendered page (early-paint/) has no name: it appears right after
 * hydration, after 'Configurações' on its line, so nothing moves (before it, it pushed the link
 * aside: issue 25, a layout shift on every signed-in page). Its own component:
 * the stored value differing from the prerendered one re-renders, urgently, only this line (in the
 * shell it re-rendered every screen in one long task).
 */
function Greeting() {
  const name = useStoredValue(() => firstName(getUser()?.name), '', subscribeUser);
  if (!name) return null;
  return (
    <Text size="sm" c="road.0" truncate="end" style={{ minWidth: 0 }}>
      Olá, {name}
    </Text>
  );
}
