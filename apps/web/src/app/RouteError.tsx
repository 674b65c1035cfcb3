import { Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { usePageTitle } from '../components/ui/usePageTitle';

/** A screen's code failed to load (weak connection) or crashed: say so and offer a reload. */
export function RouteError() {
  const error = useRouteError();
  usePageTitle('Erro');
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <Container py="xl" px="md">
      <Paper withBorder p="lg" radius="md">
        <Stack gap="md">
          <Title order={1}>Algo deu errado</Title>
          <Text>Não foi possível abrir esta página. Verifique sua conexão com a internet e tente novamente.</Text>
          <Button onClick={() => window.location.reload()} fullWidth maw={360}>
            Tentar novamente
          </Button>
        </Stack>
      </Paper>
    </Container>
  );
}
