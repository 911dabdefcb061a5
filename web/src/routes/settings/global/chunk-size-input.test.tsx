import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChunkSizeInput, ChunkSizeInputDelay } from './chunk-size-input';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

function setup(value = 10 * 1024 * 1024) {
  const onChange = vi.fn();
  render(<ChunkSizeInput id="size" value={value} onChange={onChange} />);
  return { input: screen.getByRole('textbox') as HTMLInputElement, onChange };
}

describe('chunk size input', () => {
  it('shows the size in its largest unit', () => {
    expect(setup().input.value).toBe('10 MB');
  });

  it('reads the text 1.5 s after typing stops, not before', () => {
    const { input, onChange } = setup();
    fireEvent.change(input, { target: { value: '2' } });
    act(() => vi.advanceTimersByTime(1000));
    fireEvent.change(input, { target: { value: '2.5 m' } });
    act(() => vi.advanceTimersByTime(ChunkSizeInputDelay - 1));
    expect(onChange).not.toHaveBeenCalled();
    expect(input.value).toBe('2.5 m');
    act(() => vi.advanceTimersByTime(1));
    expect(onChange).toHaveBeenCalledExactlyOnceWith(2.5 * 1024 * 1024);
    expect(input.value).toBe('2.5 MB');
  });

  it('turns unreadable text into 1 MB', () => {
    const { input, onChange } = setup();
    fireEvent.change(input, { target: { value: 'lots' } });
    act(() => vi.advanceTimersByTime(ChunkSizeInputDelay));
    expect(onChange).toHaveBeenCalledWith(1024 * 1024);
    expect(input.value).toBe('1 MB');
  });

  it('reads pending text at once when the field is left or Enter is pressed', () => {
    const { input, onChange } = setup();
    fireEvent.change(input, { target: { value: '64k' } });
    fireEvent.blur(input);
    expect(onChange).toHaveBeenLastCalledWith(64 * 1024);
    fireEvent.change(input, { target: { value: '3g' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith(3 * 1024 ** 3);
    // Nothing is pending any more, so the timer adds no call.
    act(() => vi.advanceTimersByTime(ChunkSizeInputDelay));
    expect(onChange).toHaveBeenCalledTimes(2);
    // Leaving the field without typing changes nothing.
    fireEvent.blur(input);
    expect(onChange).toHaveBeenCalledTimes(2);
  });
});
