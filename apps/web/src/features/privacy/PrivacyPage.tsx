import { Anchor, Button, Container, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { privacyNotice, type PrivacyNoticeItem, type PrivacyNoticeSection } from '@portal/domain';
import { IconArrowLeft, IconBrandWhatsapp, IconMail, IconShieldLock, IconWifiOff } from '@tabler/icons-react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ReadFailed } from '../../components/ui/ReadFailed';
import { usePageTitle } from '../../components/ui/usePageTitle';
import { API_BASE_URL } from '../../lib/http';
import { useOnline } from '../../lib/offline';
import { queryClient } from '../../lib/queryClient';
import { getToken } from '../../lib/storage';
import { useStoredValue } from '../../lib/useStoredValue';
import { usePrivacyOfficer } from './api/privacy';

const SUPPORT_PATH = '/api/suporte/whatsapp';
/** A link a finger can hit on a phone (decision 64: 44 px tall), as the login's support link. */
const TOUCHABLE = { display: 'inline-flex', alignItems: 'center', gap: 6, minHeight: 44 } as const;

const texts = privacyNotice;

/** What a driver signed in goes back to (Configurações) and what a visitor goes back to (the login). */
function BackLink() {
  // A prerendered page knows no session: it draws the visitor's, and the driver's after hydrating.
  const signedIn = useStoredValue(() => getToken() !== null, false);
  return (
    <Group>
      <Button
        component={Link}
        to={signedIn ? '/configuracoes' : '/login'}
        variant="subtle"
        size="sm"
        leftSection={<IconArrowLeft size={18} aria-hidden />}
      >
        {signedIn ? texts.back.signedIn : texts.back.signedOut}
      </Button>
    </Group>
  );
}

function Item({ item }: { item: PrivacyNoticeItem }) {
  return (
    <Stack component="li" gap={2}>
      <Text fw={700}>{item.title}</Text>
      <Text>{item.text}</Text>
      {item.link ? (
        <Anchor component={Link} to={item.link.to} fw={600} style={TOUCHABLE}>
          {item.link.label}
        </Anchor>
      ) : null}
    </Stack>
  );
}

function Section({ section }: { section: PrivacyNoticeSection }) {
  return (
    <Stack component="section" gap="sm" aria-labelledby={section.id}>
      <Title order={2} size="h3" id={section.id}>
        {section.heading}
      </Title>
      {section.intro ? <Text>{section.intro}</Text> : null}
      <Stack component="ul" gap="md" m={0} p={0} style={{ listStyle: 'none' }}>
        {section.items.map((item) => (
          <Item key={item.title} item={item} />
        ))}
      </Stack>
      {section.outro ? <Text fw={600}>{section.outro}</Text> : null}
    </Stack>
  );
}

/** The encarregado from the server (the operator's configuration); offline, said so. */
function Officer() {
  const officer = usePrivacyOfficer();
  const online = useOnline();
  const t = texts.officer;
  const contact = officer.data?.Encarregado;
  let body;
  if (contact) {
    body = (
      <Paper withBorder radius="md" p="md" bg="gray.0" data-testid="encarregado">
        <Stack gap={4}>
          <Text size="sm" c="gray.7">
            {t.nameLabel}
          </Text>
          <Text fw={700} size="lg">
            {contact.nome}
          </Text>
          <Text size="sm" c="gray.7" mt="xs">
            {t.emailLabel}
          </Text>
          <Anchor href={`mailto:${contact.email}`} fw={600} style={{ ...TOUCHABLE, overflowWrap: 'anywhere' }}>
            <IconMail size={20} aria-hidden style={{ flexShrink: 0 }} />
            {contact.email}
          </Anchor>
        </Stack>
      </Paper>
    );
  } else if (!online) {
    body = (
      <Group gap="xs" wrap="nowrap" role="status">
        <IconWifiOff size={20} aria-hidden style={{ flexShrink: 0 }} />
        <Text>{t.offline}</Text>
      </Group>
    );
  } else if (officer.isError) {
    body = <ReadFailed message={t.failed} retrying={officer.isFetching} onRetry={() => void officer.refetch()} />;
  } else {
    body = (
      <Group gap="xs" role="status">
        <Loader size="sm" aria-hidden />
        <Text>{t.loading}</Text>
      </Group>
    );
  }
  return (
    <Stack component="section" gap="sm" aria-labelledby={t.id}>
      <Title order={2} size="h3" id={t.id}>
        {t.heading}
      </Title>
      <Text>{t.text}</Text>
      {body}
      <Anchor href={`${API_BASE_URL}${SUPPORT_PATH}`} target="_blank" rel="noopener noreferrer" fw={600} style={TOUCHABLE}>
        <IconBrandWhatsapp size={20} aria-hidden style={{ flexShrink: 0 }} />
        {t.support}
      </Anchor>
    </Stack>
  );
}

/**
 * Decision 72: the privacy notice (LGPD art. 9: what is kept, why, who receives it, for how long, the
 * rights of art. 18 and how to use them here; art. 41: the encarregado). Public and prerendered: the
 * login, the registration and Configurações link to it. Its texts are the domain's (privacy.ts), the
 * record behind them docs/privacy.md.
 */
export function PrivacyPage() {
  usePageTitle(texts.title);
  const contents = [
    ...texts.sections.map((s) => ({ id: s.id, heading: s.heading })),
    { id: texts.officer.id, heading: texts.officer.heading },
  ];
  return (
    <Container size={680} px="md" py="lg" component="main">
      <Stack gap="md">
        <BackLink />
        <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="lg">
          <Stack gap="xl">
            <Stack gap="sm">
              <Group gap="sm" wrap="nowrap">
                <ThemeIcon size={44} radius="xl" aria-hidden>
                  <IconShieldLock size={26} />
                </ThemeIcon>
                <Title order={1}>{texts.title}</Title>
              </Group>
              {texts.intro.map((paragraph) => (
                <Text key={paragraph}>{paragraph}</Text>
              ))}
            </Stack>
            <nav aria-labelledby="nesta-pagina">
              <Text id="nesta-pagina" fw={700} mb={4}>
                {texts.contentsLabel}
              </Text>
              <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
                {contents.map((entry) => (
                  <li key={entry.id}>
                    <Anchor href={`#${entry.id}`} style={TOUCHABLE}>
                      {entry.heading}
                    </Anchor>
                  </li>
                ))}
              </Stack>
            </nav>
            {texts.sections.map((section) => (
              <Section key={section.id} section={section} />
            ))}
            {/* Outside the shell: this provider resumes the read paused offline when the signal returns. */}
            <QueryClientProvider client={queryClient}>
              <Officer />
            </QueryClientProvider>
          </Stack>
        </Paper>
      </Stack>
    </Container>
  );
}
