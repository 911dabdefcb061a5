import { describe, expect, it } from 'vitest';
import { parseIfHeader, submittedTokens } from './locks.js';
import { parseXml, serializeElement } from './xml.js';

describe('dead property values', () => {
  it('are written back self-contained: namespaces declared on the value, xml:lang kept as is', () => {
    const root = parseXml('<a:p xmlns:a="urn:a" xmlns:b="urn:b" xml:lang="fr"><b:c x="1&amp;2">t&lt;</b:c><d xmlns="">n</d></a:p>');
    expect(serializeElement(root)).toBe('<ns0:p xmlns:ns0="urn:a" xmlns:ns1="urn:b" xml:lang="fr"><ns1:c x="1&amp;2">t&lt;</ns1:c><d>n</d></ns0:p>');
  });

  it('decode character references above the Basic Multilingual Plane', () => {
    const root = parseXml('<p xmlns="urn:x">&#65536;&#x41;</p>');
    expect(root.children).toEqual([{ text: '\u{10000}A' }]);
  });
});

describe('If header', () => {
  it('reads tagged and untagged lists, Not, and entity tags', () => {
    expect(parseIfHeader('(<urn:uuid:1> ["e1"]) (Not <DAV:no-lock>)')).toEqual([
      { resource: undefined, conditions: [{ not: false, token: 'urn:uuid:1' }, { not: false, etag: '"e1"' }] },
      { resource: undefined, conditions: [{ not: true, token: 'DAV:no-lock' }] },
    ]);
    const tagged = parseIfHeader('<http://h/dav/a> (<urn:uuid:2>) <http://h/dav/b> (Not["x"])');
    expect(tagged.map((list) => list.resource)).toEqual(['http://h/dav/a', 'http://h/dav/b']);
    expect([...submittedTokens(tagged)]).toEqual(['urn:uuid:2']);
  });

  it('refuses malformed headers', () => {
    for (const header of ['', '<urn:x>', '(<urn:x>', '()', '(<urn:x>) <http://h/a> (<urn:y>)', '(Nothing)', 'garbage']) {
      expect(() => parseIfHeader(header), header).toThrow();
    }
  });
});
