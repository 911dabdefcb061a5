import { describe, expect, it } from 'vitest';
import { splitCommandLine } from './shell-words.js';

describe('splitCommandLine', () => {
  it('splits on whitespace and honours quotes and escapes', () => {
    expect(splitCommandLine('echo  a\tb')).toEqual(['echo', 'a', 'b']);
    expect(splitCommandLine(`cp "$FILE" '/backup/my dir'`)).toEqual(['cp', '$FILE', '/backup/my dir']);
    expect(splitCommandLine(`say "a \\"quoted\\" \\$word" it\\'s`)).toEqual(['say', 'a "quoted" $word', "it's"]);
    expect(splitCommandLine(`a"b"'c'd`)).toEqual(['abcd']);
    expect(splitCommandLine(`empty "" ''`)).toEqual(['empty', '', '']);
    expect(splitCommandLine('run # a comment')).toEqual(['run']);
    expect(splitCommandLine('a#b')).toEqual(['a#b']);
    expect(splitCommandLine('   ')).toEqual([]);
  });

  it('keeps shell metacharacters as plain text', () => {
    expect(splitCommandLine('touch x; rm -rf / | cat $(id) `id` && y')).toEqual(['touch', 'x;', 'rm', '-rf', '/', '|', 'cat', '$(id)', '`id`', '&&', 'y']);
  });

  it('refuses unbalanced quotes and a trailing backslash', () => {
    expect(() => splitCommandLine(`echo "open`)).toThrow(/double quote/);
    expect(() => splitCommandLine(`echo 'open`)).toThrow(/single quote/);
    expect(() => splitCommandLine('echo \\')).toThrow(/backslash/);
  });
});
