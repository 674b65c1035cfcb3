import { Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from '../components/ui/usePageTitle';

export function NotFoundPage() {
  usePageTitle('Página não encontrada');
  return (
    <Container py="xl" px="md" component="main">
      <Paper withBorder p="lg" radius="md">
        <Stack gap="md">
          <Title order={1}>Página não encontrada</Title>
          <Text>O endereço que você abriu não existe ou mudou de lugar.</Text>
          <Button component={Link} to="/dashboard" fullWidth maw={360}>
            Ir para o painel
          </Button>
        </Stack>
      </Paper>
    </Container>
  );
}
