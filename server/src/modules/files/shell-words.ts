/**
 * Splits a command line into words the way a POSIX shell would tokenise it, without any of the
 * shell's expansions: whitespace separates words; single quotes keep everything literally;
 * double quotes keep everything but `\"`, `\\`, `\$` and `` \` `` escapes; a backslash outside
 * quotes escapes the next character; `#` at the start of a word begins a comment. Nothing is ever
 * handed to a shell, so metacharacters such as `;`, `|` or `$(…)` are plain text.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let index = 0;
  while (index < line.length) {
    const char = line[index]!;
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      index++;
      continue;
    }
    if (char === '#' && !inWord) break;
    inWord = true;
    if (char === "'") {
      const end = line.indexOf("'", index + 1);
      if (end < 0) throw new Error('unterminated single quote');
      word += line.slice(index + 1, end);
      index = end + 1;
      continue;
    }
    if (char === '"') {
      index++;
      let closed = false;
      while (index < line.length) {
        const inner = line[index]!;
        if (inner === '"') {
          closed = true;
          index++;
          break;
        }
        if (inner === '\\' && index + 1 < line.length && '"\\$`\n'.includes(line[index + 1]!)) {
          if (line[index + 1] !== '\n') word += line[index + 1];
          index += 2;
          continue;
        }
        word += inner;
        index++;
      }
      if (!closed) throw new Error('unterminated double quote');
      continue;
    }
    if (char === '\\') {
      if (index + 1 >= line.length) throw new Error('trailing backslash');
      if (line[index + 1] !== '\n') word += line[index + 1];
      index += 2;
      continue;
    }
    word += char;
    index++;
  }
  if (inWord) words.push(word);
  return words;
}
