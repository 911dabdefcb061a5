import type { Share } from '@burrow/protocol';
import { QueryClient, QueryClientProvider } from '../lib/query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from '../lib/router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDialog, useDialogs } from '../stores/dialog-store';
import { DialogHost } from './dialog-host';

type Call = { method: string; url: string; body?: unknown };

/** A stand-in for the share API: links of one path, created and deleted as the server would. */
function fakeServer(initial: Share[]) {
  let links = [...initial];
  let counter = 0;
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body });
    const json = (value: unknown) => new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });
    if (method === 'GET' && url.startsWith('/api/share/')) return json(links);
    if (method === 'POST' && url.startsWith('/api/share/')) {
      counter += 1;
      const duration = Number(body.expires);
      const created: Share = {
        hash: `new-link-${counter}`,
        path: '/docs/report.pdf',
        userID: 1,
        expire: duration ? Math.floor(Date.now() / 1000) + duration * 86400 : 0,
        hasPassword: Boolean(body.password),
      };
      links.push(created);
      return json(created);
    }
    if (method === 'DELETE') {
      const hash = decodeURIComponent(url.slice('/api/share/'.length));
      links = links.filter((link) => link.hash !== hash);
      return new Response('200 OK', { status: 200 });
    }
    return new Response('404 Not Found', { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls };
}

function renderDialog() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: <DialogHost /> }], { initialEntries: ['/files/docs/'] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  act(() => {
    openDialog('share', { item: { path: '/docs/report.pdf', name: 'report.pdf', isDir: false } });
  });
}

const now = Math.floor(Date.now() / 1000);

// The dialogs are lazy chunks: load them once up front so each test finds them at once.
beforeAll(async () => {
  await Promise.all([import('./share-dialog'), import('./share-delete-dialog')]);
});

beforeEach(() => {
  document.body.innerHTML = '<div id="app-shell"></div>';
});

afterEach(() => {
  act(() => useDialogs.getState().closeAll());
  vi.unstubAllGlobals();
});

describe('share dialog', () => {
  it('shows the form at once without links; a new link appears in the list and the form resets', async () => {
    const server = fakeServer([]);
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Share “report.pdf”' });
    const duration = await within(dialog).findByLabelText('Duration');
    await waitFor(() => expect(document.activeElement).toBe(duration));
    expect(within(dialog).getByLabelText('Unit')).toHaveProperty('value', 'hours');

    fireEvent.change(duration, { target: { value: '2' } });
    fireEvent.change(within(dialog).getByLabelText('Unit'), { target: { value: 'days' } });
    fireEvent.change(within(dialog).getByLabelText('Password (optional)'), { target: { value: '  s3cret  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Share' }));

    const list = await within(dialog).findByRole('list', { name: 'Share links' });
    expect(within(list).getByRole('link', { name: 'new-link-1' }).getAttribute('href')).toBe(`${window.location.origin}/share/new-link-1`);
    expect(within(list).getByText(/^Expires in 2 days$/)).toBeTruthy();
    const post = server.calls.find((call) => call.method === 'POST')!;
    expect(post.url).toBe('/api/share/docs/report.pdf?expires=2&unit=days');
    expect(post.body).toEqual({ password: 's3cret', expires: '2', unit: 'days' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'New link' }));
    expect(within(dialog).getByLabelText('Duration')).toHaveProperty('value', '0');
    expect(within(dialog).getByLabelText('Unit')).toHaveProperty('value', 'hours');
    expect(within(dialog).getByLabelText('Password (optional)')).toHaveProperty('value', '');
  });

  it('refuses durations outside 0…2147483647 without asking the server', async () => {
    const server = fakeServer([]);
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    const duration = await within(dialog).findByLabelText('Duration');
    for (const value of ['-1', '2147483648', '1.5']) {
      fireEvent.change(duration, { target: { value } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
      expect((await within(dialog).findByRole('alert')).textContent).toBe('Enter a whole number from 0 to 2147483647.');
      expect(duration.getAttribute('aria-invalid')).toBe('true');
    }
    expect(server.calls.some((call) => call.method === 'POST')).toBe(false);

    // An empty duration means a permanent link.
    fireEvent.change(duration, { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    await within(dialog).findByText('Permanent');
    expect(server.calls.find((call) => call.method === 'POST')!.body).toEqual({ expires: '0', unit: 'hours' });
  });

  it('lists permanent links first, then by expiry; deleting the last link returns to the form', async () => {
    const server = fakeServer([
      { hash: 'later', path: '/docs/report.pdf', userID: 1, expire: now + 7200 },
      { hash: 'forever', path: '/docs/report.pdf', userID: 1, expire: 0, hasPassword: true },
      { hash: 'sooner', path: '/docs/report.pdf', userID: 1, expire: now + 600 },
    ]);
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Share “report.pdf”' });
    const list = await within(dialog).findByRole('list', { name: 'Share links' });
    expect(within(list).getAllByRole('link').map((link) => link.textContent)).toEqual(['forever', 'sooner', 'later']);
    expect(within(list).getByText('Password protected')).toBeTruthy();

    for (const hash of ['sooner', 'forever', 'later']) {
      const row = within(list).getByRole('link', { name: hash }).closest('li')!;
      fireEvent.click(within(row).getByRole('button', { name: 'Delete link' }));
      const confirm = await screen.findByRole('alertdialog', { name: 'Delete share link' });
      fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    }
    expect(server.calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual([
      '/api/share/sooner',
      '/api/share/forever',
      '/api/share/later',
    ]);
    expect(await within(dialog).findByLabelText('Duration')).toBeTruthy();
    expect(within(dialog).queryByRole('list', { name: 'Share links' })).toBeNull();
  });

  it('copies the public link with the clipboard API', async () => {
    fakeServer([{ hash: 'abc_DEF-123', path: '/docs/report.pdf', userID: 1, expire: 0 }]);
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/share/abc_DEF-123`));
  });

  it('asks for the clipboard permission and tries again when the first copy is refused', async () => {
    fakeServer([{ hash: 'h1', path: '/docs/report.pdf', userID: 1, expire: 0 }]);
    const writeText = vi.fn().mockRejectedValueOnce(new DOMException('denied', 'NotAllowedError')).mockResolvedValue(undefined);
    const query = vi.fn(async () => ({ state: 'prompt' }));
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText }, permissions: { query } });
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(2));
    expect(query).toHaveBeenCalledWith({ name: 'clipboard-write' });
  });
});
