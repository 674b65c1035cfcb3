/**
 * Mantine styles, per component, so /login downloads only what the public screens use
 * (the whole @mantine/core/styles.css is ~42 KB gzip). Order matters: base first.
 * default-css-variables.css (~4 KB gzip) is not downloaded: MantineProvider writes every theme
 * variable itself (deduplicateCssVariables={false} in AppProviders).
 * Using a new Mantine component? Add its CSS here (if /login needs it), in shellStyles.ts
 * (screens inside the authenticated shell) or at the top of the one public page that uses it.
 */
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Divider.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/ThemeIcon.css';
import './global.css';
