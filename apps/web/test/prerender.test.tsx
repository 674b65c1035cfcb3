import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppRoot } from '../src/app/AppRoot';
import { createRoutes } from '../src/app/routes';
import { LoginPage } from '../src/features/auth/LoginPage';
import { renderLogin } from '../src/prerender/renderLogin';

describe('prerendered /login (login.html)', () => {
  it('is the real login screen', () => {
    const { html, title } = renderLogin();
    expect(title).toBe('Entrar | Portal do Motorista');
    expect(html).toContain('Bem-vindo ao Portal do Motorista');
    expect(html).toContain('autoComplete="username"');
    expect(html).toContain('href="/registrar"');
  });

  it('hydrates without a mismatch and keeps both fields typed before hydration', async () => {
    const errors = vi.spyOn(console, 'error');
    const container = document.createElement('div');
    container.innerHTML = renderLogin().html;
    document.body.appendChild(container);
    const cpfCnpj = container.querySelector<HTMLInputElement>('input[name="cpfCnpj"]');
    const password = container.querySelector<HTMLInputElement>('input[name="password"]');
    if (!cpfCnpj || !password) throw new Error('a field is missing from the prerendered markup');
    cpfCnpj.value = '52998224725';
    password.value = 'motorista123';

    const router = createMemoryRouter(createRoutes({ LoginPage }), { initialEntries: ['/login'] });
    const root = await act(async () => hydrateRoot(container, <AppRoot router={router} />));

    expect(errors).not.toHaveBeenCalled();
    expect(container.querySelector('input[name="cpfCnpj"]')).toBe(cpfCnpj);
    expect(cpfCnpj.value).toBe('529.982.247-25');
    expect(container.querySelector('input[name="password"]')).toBe(password);
    expect(password.value).toBe('motorista123');
    act(() => root.unmount());
    container.remove();
  });
});
