import { CommandMessages } from '@burrow/protocol';
import { splitCommandLine } from '../files/shell-words.js';

/** A refusal whose message is sent to the client as is (it must reveal nothing about files). */
export class CommandRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandRefusal';
  }
}

/**
 * Characters a shell would act on. With a configured shell the whole line reaches it, so any of
 * these could start a second command, expand something or redirect output: such lines are
 * refused. Quotes go too, since they decide what the other characters mean.
 */
// eslint-disable-next-line no-control-regex -- control characters are refused on purpose
const SHELL_METACHARACTERS = /[;&|$`<>(){}[\]*?!~\\'"#^\x00-\x08\x0a-\x1f\x7f]/;

/**
 * Turns one command line into the argv to run, or refuses it. The line is split the way a shell
 * splits words but nothing else a shell does happens; the first word must be one of the user's
 * commands exactly. Without a shell the argv runs directly, so `;`, `|`, `&&`, `$(…)`, backticks
 * and redirections are plain arguments. With a shell (`settings.shell`, e.g. `/bin/sh -c`) the
 * line is handed over whole, and only when it holds no metacharacter.
 */
export function commandArgv(line: string, allowed: readonly string[], shell: readonly string[]): string[] {
  // One frame is one command: a line break would be a second command to any shell.
  const text = line.replace(/\r?\n$/, '');
  if (/[\r\n\0]/.test(text)) throw new CommandRefusal('A command must be a single line.');
  let words: string[];
  try {
    words = splitCommandLine(text);
  } catch (error) {
    throw new CommandRefusal(`Cannot read the command: ${(error as Error).message}.`);
  }
  const program = words[0];
  if (program === undefined || !allowed.includes(program)) throw new CommandRefusal(CommandMessages.notAllowed);
  if (shell.length === 0) return words;
  if (SHELL_METACHARACTERS.test(text)) {
    throw new CommandRefusal('Shell metacharacters such as ; & | $ ` < > ( ) * ? and quotes are not allowed here.');
  }
  return [...shell, text.trim()];
}
