import { afterEach, describe, expect, it, vi } from 'vitest';
import { extensionOf } from './file-info.js';
import { EntryExtensions, TYPE_CODES, typeCode } from './listing-items.js';

describe('EntryExtensions', () => {
  it('answers what extensionOf does, name after name, repeated or not', () => {
    const names = ['a.txt', 'b.txt', 'c.TXT', 'd.txt', 'e.tar.gz', 'f.gz', 'noext', 'g.txt', '.hidden', 'h.', 'i.txt', 'txt', 'j.ttxt', 'k.xtxt', 'l.txt', 'é.txt', 'm.tx'];
    const extensions = new EntryExtensions();
    for (const name of [...names, ...names.reverse()]) expect([name, extensions.of(name)]).toEqual([name, extensionOf(name)]);
  });
});

describe('typeCode', () => {
  it('is the index of each type, and refuses a type it has no code for', () => {
    TYPE_CODES.forEach((type, code) => expect(typeCode(type)).toBe(code));
    expect(() => typeCode('nonsense' as never)).toThrow();
  });
});

describe('ItemWriter', () => {
  const zone = process.env.TZ;
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
    vi.resetModules();
  });

  it('writes times as formatModifiedParts does, second after second, across days and offset changes', async () => {
    process.env.TZ = 'Europe/Berlin';
    vi.resetModules();
    const { ItemWriter, typeCode: codeOf } = await import('./listing-items.js');
    const { formatModifiedParts } = await import('./file-info.js');
    const { IS_FILE } = await import('./entry-stats.js');
    // Around midnight, around the spring change to summer time (2026-03-29 01:00 UTC), the epoch, before it, far ahead.
    const spring = Date.UTC(2026, 2, 29, 1) / 1000;
    const seconds = [0, -1, -86_401, 59, 60, 3599, 3600, 86_399, 86_400, 86_401, spring - 3601, spring - 1, spring, spring, spring + 1, spring + 7200, 1_790_000_000, 253_402_300_799, 1_790_000_000];
    const nanos = [0, 1, 500_000_000, 123_456_789, 999_999_999, 10];
    const writer = new ItemWriter('[', '/f', 100);
    seconds.forEach((second, index) => writer.add(`n${index}`, '', IS_FILE, 0o100644, 1, second, nanos[index % nanos.length]!, codeOf('text')));
    writer.append(']');
    const written = (JSON.parse(Buffer.concat(writer.parts).toString()) as { modified: string }[]).map((item) => item.modified);
    expect(written).toEqual(seconds.map((second, index) => formatModifiedParts(second, nanos[index % nanos.length]!)));
    // The zone took: both offsets of the year are there.
    expect(written.some((text) => text.endsWith('+01:00')) && written.some((text) => text.endsWith('+02:00'))).toBe(true);
  });

  it('writes every name as JSON.stringify does, in the path and as the name', async () => {
    const { ItemWriter, typeCode: codeOf } = await import('./listing-items.js');
    const { IS_FILE } = await import('./entry-stats.js');
    const names = ['plain.txt', 'say "hi".txt', 'back\\slash', 'tab\there', 'ünïcödé.md', '日本語', 'emoji 😀', 'lone \udc80', 'x'.repeat(300), '', 'a'];
    const writer = new ItemWriter('[', '/some "folder"', 100);
    for (const name of names) writer.add(name, '', IS_FILE, 0o100644, 7, 1_790_000_000, 0, codeOf('blob'));
    writer.append(']');
    const text = Buffer.concat(writer.parts).toString();
    const items = JSON.parse(text) as { path: string; name: string }[];
    expect(items.map((item) => item.name)).toEqual(names.map((name) => JSON.parse(JSON.stringify(name)) as string));
    expect(items.map((item) => item.path)).toEqual(names.map((name) => JSON.parse(JSON.stringify(`/some "folder"/${name}`)) as string));
    // Byte for byte as JSON.stringify writes them.
    for (const name of names) expect(text).toContain(`{"path":${JSON.stringify(`/some "folder"/${name}`)},"name":${JSON.stringify(name)},"size":7,`);
  });
});
