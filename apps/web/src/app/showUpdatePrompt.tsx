import { createRoot } from 'react-dom/client';
import { AppProviders } from './AppProviders';
import { UpdatePrompt } from '../components/ui/UpdatePrompt';

/**
 * The notice of a new version (pwa/registerServiceWorker.ts calls it, given by main.tsx). Shows it in a root of its own, beside the app's: it appears on any screen, public or
 * signed in, without touching the app's tree (and /login's hydration). Shown at most once.
 */
let shown = false;
export function showUpdatePrompt(onUpdate: () => void): void {
  if (shown) return;
  shown = true;
  const host = document.createElement('div');
  host.dataset.updatePrompt = '';
  document.body.append(host);
  const root = createRoot(host);
  const dismiss = () => {
    root.unmount();
    host.remove();
  };
  root.render(
    <AppProviders>
      <UpdatePrompt onUpdate={onUpdate} onDismiss={dismiss} />
    </AppProviders>,
  );
}
