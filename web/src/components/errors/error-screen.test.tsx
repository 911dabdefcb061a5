import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ErrorScreen, type ErrorScreenCode } from './error-screen';

describe('ErrorScreen', () => {
  it.each<[ErrorScreenCode, string, string]>([
    ['no_connection', '0', 'Something is wrong with the connection.'],
    ['forbidden', '403', "You don't have permission to access this."],
    ['not_found', '404', "This location can't be reached."],
    ['internal', '500', 'Something went really wrong.'],
    ['conflict', '409', 'Something went really wrong.'],
  ])('shows %s with its status and message', (code, status, message) => {
    render(<ErrorScreen code={code} />);
    const alert = screen.getByRole('alert');
    expect(alert.getAttribute('data-code')).toBe(code);
    expect(alert.getAttribute('data-status')).toBe(status);
    expect(alert.textContent).toContain(message);
  });
});
