import { Alert, Button, Stack, Text } from '@mantine/core';
import { api, type Endpoint } from '@portal/contract';
import { fleetScreens as t } from '@portal/domain';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ListPageHeader } from '../../components/ui/ListPageHeader';
import { readableAlert } from '../../components/ui/readableAlert';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { mayCall, useActing } from '../../lib/actingAccount';

/**
 * Decision 77: a page of a company's account for the roles that may make its read (`reads`; by
 * default the members', a Gestor's or the company's own login). Anyone else reads why, and asks the
 * server nothing it would refuse.
 */
function CompanyOnly({ reads, children }: { reads: Pick<Endpoint, 'capability'>; children: ReactNode }) {
  const { role, isCompany } = useActing();
  if (isCompany && mayCall(role, reads)) return children;
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

/** A company's page: its title (the tab's too) and what it is for, then its content for the roles that may read it (CompanyOnly). */
export function CompanyPage({
  title,
  subtitle,
  reads = api.members,
  children,
}: {
  title: string;
  subtitle: string;
  reads?: Pick<Endpoint, 'capability'>;
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <Stack gap="lg">
      <ListPageHeader title={title} subtitle={subtitle} />
      <CompanyOnly reads={reads}>{children}</CompanyOnly>
    </Stack>
  );
}
