import { describe, expect, it } from 'vitest';
import { EntryExtensions, extensionOfEntry, TYPE_CODES, typeCode } from './listing-items.js';

describe('EntryExtensions', () => {
  it('answers what extensionOfEntry does, name after name, repeated or not', () => {
    const names = ['a.txt', 'b.txt', 'c.TXT', 'd.txt', 'e.tar.gz', 'f.gz', 'noext', 'g.txt', '.hidden', 'h.', 'i.txt', 'txt', 'j.ttxt', 'k.xtxt', 'l.txt', 'é.txt', 'm.tx'];
    const extensions = new EntryExtensions();
    for (const name of [...names, ...names.reverse()]) expect([name, extensions.of(name)]).toEqual([name, extensionOfEntry(name)]);
  });
});

describe('typeCode', () => {
  it('is the index of each type, and refuses a type it has no code for', () => {
    TYPE_CODES.forEach((type, code) => expect(typeCode(type)).toBe(code));
    expect(() => typeCode('nonsense' as never)).toThrow();
  });
});
