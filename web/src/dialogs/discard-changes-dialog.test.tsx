import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import DiscardChangesDialog from './discard-changes-dialog';

function setup(saveResult: boolean) {
  const handlers = { onSave: vi.fn(async () => saveResult), onDiscard: vi.fn(), onClose: vi.fn() };
  render(<DiscardChangesDialog dialogId={1} {...handlers} />);
  return handlers;
}

describe('discard changes dialog', () => {
  it('offers cancel, discard changes and save changes', () => {
    setup(true);
    expect(screen.getByRole('alertdialog', { name: 'Discard changes?' })).toBeTruthy();
    expect(screen.getAllByRole('button').map((button) => button.textContent)).toEqual(['Cancel', 'Discard changes', 'Save changes']);
  });

  it('cancel only closes', () => {
    const handlers = setup(true);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(handlers.onClose).toHaveBeenCalledOnce();
    expect(handlers.onDiscard).not.toHaveBeenCalled();
    expect(handlers.onSave).not.toHaveBeenCalled();
  });

  it('discard goes on without saving', () => {
    const handlers = setup(true);
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(handlers.onDiscard).toHaveBeenCalledOnce();
    expect(handlers.onSave).not.toHaveBeenCalled();
  });

  it('save closes once saved, and stays open when saving failed', async () => {
    const saved = setup(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(saved.onClose).toHaveBeenCalledOnce());
    document.body.innerHTML = '';

    const failed = setup(false);
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(failed.onSave).toHaveBeenCalledOnce());
    await waitFor(() => expect((screen.getByRole('button', { name: 'Save changes' }) as HTMLButtonElement).disabled).toBe(false));
    expect(failed.onClose).not.toHaveBeenCalled();
  });
});
