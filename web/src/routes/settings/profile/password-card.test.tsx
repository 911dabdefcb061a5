import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../../stores/session-store';
import { comparePasswords, PasswordCard } from './password-card';

const updateUser = vi.hoisted(() => vi.fn(async () => undefined));
const notify = vi.hoisted(() => ({ showSuccess: vi.fn(async () => undefined), showError: vi.fn(async () => undefined) }));
vi.mock('../../../api/users', () => ({ updateUser }));
vi.mock('../../../lib/notify', () => notify);

const user = {
  id: 7,
  username: 'ann',
  locale: 'en',
  viewMode: 'list',
  singleClick: false,
  redirectAfterCopyMove: true,
  perm: { admin: false, execute: false, create: true, rename: true, modify: true, delete: true, share: true, download: true },
  commands: [],
  lockPassword: false,
  hideDotfiles: false,
  dateFormat: false,
  aceEditorTheme: '',
};

beforeEach(() => {
  useSession.setState({ user, token: 'a.b.c' });
});

afterEach(() => {
  useSession.setState({ user: null, token: null });
  vi.clearAllMocks();
});

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('password card', () => {
  it('compares the two new passwords', () => {
    expect(comparePasswords('', '')).toBe('empty');
    expect(comparePasswords('abc', 'abc')).toBe('match');
    expect(comparePasswords('abc', 'abd')).toBe('mismatch');
    expect(comparePasswords('abc', '')).toBe('mismatch');
  });

  it('marks the fields and sends nothing until both match and are not empty', async () => {
    render(<PasswordCard />);
    const submit = screen.getByRole('button', { name: 'Update password' });
    fill('Current password', 'old-password');
    fill('New password', 'new-password-1');
    fill('Confirm the new password', 'new-password-2');
    expect(screen.getByLabelText('New password').className).toContain('input--mismatch');
    expect(screen.getByLabelText('Confirm the new password').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText("The passwords don't match.")).toBeTruthy();
    fireEvent.submit(submit.closest('form')!);
    expect(updateUser).not.toHaveBeenCalled();

    fill('Confirm the new password', 'new-password-1');
    expect(screen.getByLabelText('Confirm the new password').className).toContain('input--match');
    fireEvent.submit(submit.closest('form')!);
    await waitFor(() => expect(notify.showSuccess).toHaveBeenCalledWith('Password updated'));
    expect(updateUser).toHaveBeenCalledExactlyOnceWith(7, { password: 'new-password-1' }, ['password'], 'old-password');
    expect((screen.getByLabelText('New password') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Confirm the new password') as HTMLInputElement).value).toBe('');
  });

  it('keeps what was typed when the server refuses', async () => {
    updateUser.mockRejectedValueOnce(new Error('400 Bad Request (the current password is incorrect)'));
    render(<PasswordCard />);
    fill('Current password', 'wrong');
    fill('New password', 'new-password-1');
    fill('Confirm the new password', 'new-password-1');
    fireEvent.submit(screen.getByRole('button', { name: 'Update password' }).closest('form')!);
    await waitFor(() => expect(notify.showError).toHaveBeenCalled());
    expect((screen.getByLabelText('New password') as HTMLInputElement).value).toBe('new-password-1');
  });

  it('says "User is not set!" without a session user', async () => {
    useSession.setState({ user: null });
    render(<PasswordCard />);
    fill('Current password', 'old');
    fill('New password', 'new-password-1');
    fill('Confirm the new password', 'new-password-1');
    fireEvent.submit(screen.getByRole('button', { name: 'Update password' }).closest('form')!);
    await waitFor(() => expect(notify.showError).toHaveBeenCalledWith(new Error('User is not set!')));
    expect(updateUser).not.toHaveBeenCalled();
  });
});
