import { describe, expect, it } from 'vitest';
import { CommandMessages } from '@burrow/protocol';
import { CommandRefusal, commandArgv } from './command-line.js';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof CommandRefusal) return error.message;
    throw error;
  }
  return undefined;
};

describe('commandArgv', () => {
  it('splits shell-style and keeps metacharacters as plain words', () => {
    expect(commandArgv(`git log --format='%h %s' "a b"`, ['git'], [])).toEqual(['git', 'log', '--format=%h %s', 'a b']);
    expect(commandArgv('ls | cat && rm -rf / ; $(id) `id` > out', ['ls'], [])).toEqual(['ls', '|', 'cat', '&&', 'rm', '-rf', '/', ';', '$(id)', '`id`', '>', 'out']);
    expect(commandArgv('echo hi\n', ['echo'], [])).toEqual(['echo', 'hi']);
  });

  it('needs the first word to be exactly one of the allowed commands', () => {
    for (const line of ['ls; id', 'LS', '/bin/ls', ' \t', 'lsx', '"ls"x']) {
      expect(refusal(() => commandArgv(line, ['ls'], [])), line).toBe(CommandMessages.notAllowed);
    }
    expect(commandArgv('"ls" -l', ['ls'], [])).toEqual(['ls', '-l']);
  });

  it('refuses more than one line and unreadable quoting', () => {
    expect(refusal(() => commandArgv('ls\nid', ['ls'], []))).toBe('A command must be a single line.');
    expect(refusal(() => commandArgv('ls\rid', ['ls'], []))).toBe('A command must be a single line.');
    expect(refusal(() => commandArgv('ls\0id', ['ls'], []))).toBe('A command must be a single line.');
    expect(refusal(() => commandArgv("ls 'open", ['ls'], []))).toBe('Cannot read the command: unterminated single quote.');
  });

  it('hands the whole line to a configured shell only when it holds no metacharacter', () => {
    expect(commandArgv('ls -la docs', ['ls'], ['/bin/sh', '-c'])).toEqual(['/bin/sh', '-c', 'ls -la docs']);
    expect(commandArgv('ls  über-ordner_1.2,x=y@z:%+', ['ls'], ['/bin/sh', '-c'])).toEqual(['/bin/sh', '-c', 'ls  über-ordner_1.2,x=y@z:%+']);
    for (const character of [';', '&', '|', '$', '`', '<', '>', '(', ')', '{', '}', '[', ']', '*', '?', '!', '~', '\\', '#', '^', '\t\x1b']) {
      expect(refusal(() => commandArgv(`ls a${character}b`, ['ls'], ['/bin/sh', '-c'])), character).toMatch(/^Shell metacharacters/);
    }
    // Quotes change what everything else means to the shell.
    expect(refusal(() => commandArgv(`ls 'a b'`, ['ls'], ['/bin/sh', '-c']))).toMatch(/^Shell metacharacters/);
    expect(refusal(() => commandArgv(`ls "a b"`, ['ls'], ['/bin/sh', '-c']))).toMatch(/^Shell metacharacters/);
  });
});
