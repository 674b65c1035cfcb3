import { IDEMPOTENCY_KEY_HEADER } from '@portal/contract';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAcceptTerms } from '../../../src/features/terms/api/terms';
import { NO_ANSWER_MESSAGE } from '../../../src/lib/idempotency';
import { queryClient } from '../../../src/lib/queryClient';
import { mockApi, ok } from '../../support/utils';

/** Accepting the terms when the server does not answer (issue 25, decision 59). */

afterEach(() => {
  queryClient.clear();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
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
