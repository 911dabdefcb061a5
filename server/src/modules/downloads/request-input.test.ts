import { describe, expect, it } from 'vitest';
import { archiveEntryName } from './archive-entries.js';
import { parseArchiveFormat, parseFilesParam } from './request-input.js';

describe('names and query input', () => {
  it('makes archive entry names that cannot climb out', () => {
    expect(archiveEntryName('a/b.txt')).toBe('a/b.txt');
    expect(archiveEntryName('..\\..\\x')).toBe('.._.._x');
    expect(archiveEntryName('a/../b')).toBeUndefined();
    expect(archiveEntryName('/abs')).toBeUndefined();
  });

  it('decodes files= once more, and knows every archive format', () => {
    expect(parseFilesParam('/a%2Bb+c,,/d%2520e')).toEqual(['/a+b+c', '/d%20e']);
    expect(parseFilesParam(undefined)).toEqual([]);
    for (const algo of [undefined, '', 'true', 'zip']) expect(parseArchiveFormat(algo)).toBe('zip');
    for (const algo of ['tar', 'targz', 'tarbz2', 'tarxz', 'tarlz4', 'tarsz', 'tarbr', 'tarzst']) expect(parseArchiveFormat(algo)).toBe(algo);
    for (const algo of ['rar', '7z', 'constructor', '__proto__']) expect(() => parseArchiveFormat(algo)).toThrow(/unsupported archive format/);
  });
});
