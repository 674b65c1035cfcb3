import { act, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoot } from '../../src/app/AppRoot';
import { createAppRouter } from '../../src/app/router';
import { createRoutes, loadScreens } from '../../src/app/routes';
import { queryClient } from '../../src/lib/queryClient';

/** Where a screen opens (app/router.ts's scroll restoration; issue 25, decision 59). */

afterEach(() => {
  queryClient.clear();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('every navigation starts at the top; a prerendered page is left where the driver scrolled it', () => {
  async function open(prerendered: boolean) {
    window.history.replaceState(null, '', '/login');
    const scrolled = vi.spyOn(window, 'scrollTo');
    const screens = await loadScreens(['login', 'registrar']);
    const router = createAppRouter(createRoutes(screens), { prerendered });
    render(<AppRoot router={router} />);
    await waitFor(() => expect(document.title).not.toBe(''));
    return { router, scrolled };
  }

  it('a page the build drew: its first render leaves the scroll alone, the next screen opens at its top', async () => {
    const { router, scrolled } = await open(true);
    expect(scrolled).not.toHaveBeenCalled();
    await act(() => router.navigate('/registrar'));
    expect(scrolled).toHaveBeenLastCalledWith(0, 0);
  });

  it('a page drawn anew starts at its top', async () => {
    const { scrolled } = await open(false);
    expect(scrolled).toHaveBeenCalledWith(0, 0);
  });
});
