import { IDEMPOTENCY_KEY_HEADER } from '@portal/contract';
import { act, render, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoot } from '../src/app/AppRoot';
import { createAppRouter } from '../src/app/router';
import { createRoutes, loadScreens } from '../src/app/routes';
import { useAcceptTerms } from '../src/features/terms/api/terms';
import { NO_ANSWER_MESSAGE } from '../src/lib/idempotency';
import { queryClient } from '../src/lib/queryClient';
import { mockApi, ok } from './utils';

/** Issue 25, items 1 and 3 (docs/decisions/0059): where a screen opens, and a terms decision that got no answer. */

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

describe('a terms decision that got no answer is said at once', () => {
  it('one call, then the failure (no silent retries); pressing again sends the same Idempotency-Key', async () => {
    window.localStorage.setItem('token', 'token-de-teste');
    let answered = false;
    const mock = mockApi({
      // A proxy answering for a server that did not: no envelope, the acceptance may or may not be made.
      'POST /api/termos/aceitar': () => (answered ? ok() : { status: 502 }),
    });
    const { result } = renderHook(() => useAcceptTerms());
    const started = Date.now();
    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isError).toBe(true));
    // api.ts would have waited 1, 2 and 4 s between four attempts.
    expect(Date.now() - started).toBeLessThan(900);
    expect(mock.callsTo('POST', '/api/termos/aceitar')).toHaveLength(1);
    expect(result.current.error?.message).toBe(NO_ANSWER_MESSAGE);

    answered = true;
    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    const keys = mock.callsTo('POST', '/api/termos/aceitar').map((call) => call.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });
});
