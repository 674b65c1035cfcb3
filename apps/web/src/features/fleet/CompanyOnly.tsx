import { Alert, Button, Stack, Text } from '@mantine/core';
import { api } from '@portal/contract';
import { fleetScreens as t } from '@portal/domain';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { readableAlert } from '../../components/ui/readableAlert';
import { mayCall, useActing } from '../../lib/actingAccount';

/**
 * Decision 77: a page of a company's account for whoever manages its members (a Gestor, or the
 * company's own login). Anyone else reads why, and asks the server nothing it would refuse.
 */
export function CompanyOnly({ children }: { children: ReactNode }) {
  const { role, isCompany } = useActing();
  if (isCompany && mayCall(role, api.members)) return children;
  return (
    <Alert color="road" variant="light" radius="md" icon={<IconLock aria-hidden />} title={t.companyOnlyTitle} styles={readableAlert}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm" c="dark.7">
          {t.companyOnly}
        </Text>
        <Button component={Link} to="/dashboard" variant="light" leftSection={<IconArrowLeft size={20} aria-hidden />}>
          {t.backToDashboard}
        </Button>
      </Stack>
    </Alert>
  );
}
