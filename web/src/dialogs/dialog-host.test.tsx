import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from '../lib/router';
import { afterEach, describe, expect, it } from 'vitest';
import { openDialog, useDialogs } from '../stores/dialog-store';
import { DialogHost } from './dialog-host';

function renderHost() {
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            <div id="app-shell">
              <button type="button" onClick={() => openDialog('new-folder', { folder: '/docs/' })}>
                open
              </button>
            </div>
            <DialogHost />
          </>
        ),
      },
    ],
    { initialEntries: ['/files/docs/'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  act(() => useDialogs.getState().closeAll());
});

describe('dialog host', () => {
  it('opens a dialog by name, focuses its field, closes it on Escape and gives focus back', async () => {
    renderHost();
    const opener = screen.getByRole('button', { name: 'open' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'New folder' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Folder name')));
    expect(document.getElementById('app-shell')!.inert).toBe(true);

    fireEvent.keyDown(document, { key: 'Escape' });
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    expect(document.getElementById('app-shell')!.inert).toBe(false);
    expect(document.activeElement).toBe(opener);
  });

  it('stacks dialogs: the ones below are inert, Escape closes only the top one', async () => {
    renderHost();
    act(() => {
      openDialog('new-folder', { folder: '/' });
      openDialog('new-file', { folder: '/' });
    });
    const top = await screen.findByRole('dialog', { name: 'New file' });
    const below = screen.getByRole('dialog', { name: 'New folder' });
    const layerOf = (dialog: HTMLElement) => dialog.closest<HTMLElement>('.dialog-layer')!;
    expect(layerOf(below).inert).toBe(true);
    expect(layerOf(top).inert).toBe(false);
    // No attribute left behind saying `inert="false"`, which would make the top one inert too.
    expect(layerOf(top).hasAttribute('inert')).toBe(false);
    expect(useDialogs.getState().stack.map((entry) => entry.name)).toEqual(['new-folder', 'new-file']);
    fireEvent.keyDown(document, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New file' })).toBeNull());
    expect(screen.getByRole('dialog', { name: 'New folder' })).toBe(below);
    expect(layerOf(below).inert).toBe(false);
    expect(useDialogs.getState().stack.map((entry) => entry.name)).toEqual(['new-folder']);
  });

  it('closes every dialog when the route changes', async () => {
    const router = renderHost();
    act(() => {
      openDialog('new-folder', { folder: '/' });
    });
    await screen.findByRole('dialog', { name: 'New folder' });
    await act(() => router.navigate('/settings/profile'));
    await waitFor(() => expect(useDialogs.getState().stack).toEqual([]));
  });
});
