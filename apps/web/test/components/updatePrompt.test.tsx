import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../src/app/AppProviders';
import { UpdatePrompt } from '../../src/components/ui/UpdatePrompt';

describe('UpdatePrompt', () => {
  const renderPrompt = () => {
    const onUpdate = vi.fn();
    const onDismiss = vi.fn();
    render(
      <AppProviders>
        <UpdatePrompt onUpdate={onUpdate} onDismiss={onDismiss} />
      </AppProviders>,
    );
    return { onUpdate, onDismiss };
  };

  it("tells the driver 'Nova versão disponível' and updates only when asked", async () => {
    const { onUpdate, onDismiss } = renderPrompt();
    expect(screen.getByRole('status')).toHaveTextContent('Nova versão disponível');
    expect(onUpdate).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Atualizar' }));
    expect(onUpdate).toHaveBeenCalledTimes(1);
    expect(onDismiss).not.toHaveBeenCalled();
    // Pressed once: the button waits for the reload instead of updating twice.
    expect(screen.getByRole('button', { name: 'Depois' })).toBeDisabled();
  });

  it("'Depois' keeps the running version", async () => {
    const { onUpdate, onDismiss } = renderPrompt();
    await userEvent.click(screen.getByRole('button', { name: 'Depois' }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
    expect(onUpdate).not.toHaveBeenCalled();
  });
});
