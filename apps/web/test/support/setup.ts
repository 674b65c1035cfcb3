import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Mantine reads these browser APIs; jsdom does not implement them.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView = () => undefined;
Object.defineProperty(window, 'scrollTo', { writable: true, value: () => undefined });

// The routes load lazily: on a busy machine a file's first screen can take more than findBy's
// default second (its modules are transformed then), in every file alike. In \`npm test\` the web
// files share the two cores with the server's (the PostgreSQL fuzz beside them): a dashboard's
// first draw was seen to take more than 5 s there, and once more than 10 s (a clean clone, the
// retention and closing suites beside it), so a wait gives up after 20 s, still below the test's
// own 30 s. A test that passes waits no longer for it.
configure({ asyncUtilTimeout: 20_000 });

afterEach(() => {
  cleanup();
  // Toasts live in a module-level store: without this, one test's toasts (limit 3) hide the next one's.
  notifications.clean();
  window.localStorage.clear();
});
