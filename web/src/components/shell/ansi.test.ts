import { describe, expect, it } from 'vitest';
import { stripAnsi } from './ansi';

describe('stripAnsi', () => {
  it('removes colour codes and keeps the text', () => {
    expect(stripAnsi('\u001b[1;31mred\u001b[0m plain')).toBe('red plain');
    expect(stripAnsi('\u001b[38;5;208morange\u001b[m')).toBe('orange');
  });

  it('removes cursor moves, titles and links', () => {
    expect(stripAnsi('a\u001b[2Kb\u001b[10Dc')).toBe('abc');
    expect(stripAnsi('\u001b]0;title\u0007text')).toBe('text');
    expect(stripAnsi('\u001b]8;;https://example.org\u001b\\link\u001b]8;;\u001b\\')).toBe('link');
    expect(stripAnsi('\u009b32mgreen')).toBe('green');
  });

  it('leaves ordinary text alone', () => {
    expect(stripAnsi('[brackets] and 100% ; done')).toBe('[brackets] and 100% ; done');
  });
});
