import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { privacyLinks } from '@portal/domain';
import { IconShieldLock } from '@tabler/icons-react';
import { Link } from 'react-router';

/** Decision 72: the privacy notice from Configurações, where the driver's own data is. */
export function PrivacySection() {
  return (
    <Paper component="section" aria-labelledby="privacidade" withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} radius="lg">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h3" id="privacidade">
          {privacyLinks.settingsHeading}
        </Title>
        <Text>{privacyLinks.settingsText}</Text>
        <Button component={Link} to={privacyLinks.path} variant="light" leftSection={<IconShieldLock size={20} aria-hidden />}>
          {privacyLinks.label}
        </Button>
      </Stack>
    </Paper>
  );
}
