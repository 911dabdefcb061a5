import { createRequire } from 'node:module';
import type * as Fxp from 'fast-xml-parser';
import { badRequest } from '../../errors.js';

/** The WebDAV namespace. */
export const DAV = 'DAV:';

/** An element with its namespace resolved: `{DAV:}prop` is `{ ns: 'DAV:', name: 'prop' }`. */
export type XmlElement = {
  ns: string;
  name: string;
  /** Attributes by `{namespace}name` (`name` alone when unqualified); namespace declarations left out. */
  attrs: Record<string, string>;
  children: XmlNode[];
};
export type XmlNode = XmlElement | { text: string };

export const isElement = (node: XmlNode): node is XmlElement => 'name' in node;

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** Largest XML request body read (PROPFIND, PROPPATCH, LOCK). */
export const MAX_XML_BYTES = 1024 * 1024;
/** Deepest nesting accepted; real clients stay below ten. */
const MAX_DEPTH = 64;

/**
 * The XML parser loads with the first WebDAV request that has a body (through its CommonJS
 * build, so that parsing stays synchronous): a server without WebDAV clients never carries it.
 */
let library: { parser: Fxp.XMLParser; validator: typeof Fxp.XMLValidator } | undefined;
function xmlLibrary(): { parser: Fxp.XMLParser; validator: typeof Fxp.XMLValidator } {
  if (!library) {
    const { XMLParser, XMLValidator } = createRequire(import.meta.url)('fast-xml-parser') as typeof Fxp;
    library = {
      parser: new XMLParser({
        preserveOrder: true,
        ignoreAttributes: false,
        attributeNamePrefix: '',
        // Entities are decoded here, with only XML's five named ones known: no DTD is ever read.
        processEntities: false,
        htmlEntities: false,
        trimValues: false,
        parseTagValue: false,
        parseAttributeValue: false,
        ignoreDeclaration: true,
        ignorePiTags: true,
        cdataPropName: '#cdata',
      }),
      validator: XMLValidator,
    };
  }
  return library;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', apos: "'", quot: '"' };

/** Decodes character and predefined entity references; any other reference is refused. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&([^;&\s]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(';')) throw badRequest('malformed XML');
    if (NAMED[body] !== undefined) return NAMED[body]!;
    const numeric = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(body);
    if (numeric) {
      const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : Number(numeric[2]);
      const legal = code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
      if (!legal) throw badRequest('malformed XML');
      return String.fromCodePoint(code);
    }
    throw badRequest('unknown XML entity');
  });
}

type RawNode = Record<string, unknown> & { ':@'?: Record<string, string> };

function splitName(qualified: string): [string | undefined, string] {
  const colon = qualified.indexOf(':');
  return colon < 0 ? [undefined, qualified] : [qualified.slice(0, colon), qualified.slice(colon + 1)];
}

function resolveNode(raw: RawNode, inherited: Map<string, string>, depth: number): XmlNode | undefined {
  if (depth > MAX_DEPTH) throw badRequest('XML nested too deeply');
  const key = Object.keys(raw).find((name) => name !== ':@');
  if (key === undefined) return undefined;
  if (key === '#text') return { text: decodeEntities(String(raw[key])) };
  if (key === '#cdata') {
    const parts = raw[key] as RawNode[];
    return { text: parts.map((part) => String(part['#text'] ?? '')).join('') };
  }
  const attributes = raw[':@'] ?? {};
  let scope = inherited;
  for (const [name, value] of Object.entries(attributes)) {
    if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
    if (scope === inherited) scope = new Map(inherited);
    const uri = decodeEntities(value);
    if (name === 'xmlns') scope.set('', uri);
    else {
      // Namespaces in XML 1.0: a prefix can never be bound to the empty name.
      if (uri === '') throw badRequest('invalid namespace declaration');
      scope.set(name.slice(6), uri);
    }
  }
  const [prefix, local] = splitName(key);
  const ns = scope.get(prefix ?? '');
  if (prefix !== undefined && ns === undefined) throw badRequest('undeclared namespace prefix');
  const attrs: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    const [attrPrefix, attrLocal] = splitName(name);
    if (attrPrefix === undefined) attrs[attrLocal] = decodeEntities(value);
    else {
      const attrNs = scope.get(attrPrefix);
      if (attrNs === undefined) throw badRequest('undeclared namespace prefix');
      attrs[`{${attrNs}}${attrLocal}`] = decodeEntities(value);
    }
  }
  const children: XmlNode[] = [];
  for (const child of (raw[key] as RawNode[]) ?? []) {
    const node = resolveNode(child, scope, depth + 1);
    if (node) children.push(node);
  }
  return { ns: ns ?? '', name: local, attrs, children };
}

/**
 * Parses a request body into a namespace-resolved tree. Malformed XML, undeclared prefixes,
 * prefixes bound to "" and any document type declaration (the door to entity expansion and
 * external entities) are refused with 400.
 */
export function parseXml(body: string): XmlElement {
  if (/<!DOCTYPE|<!ENTITY/i.test(body)) throw badRequest('document type declarations are not accepted');
  const { parser, validator } = xmlLibrary();
  if (validator.validate(body) !== true) throw badRequest('malformed XML');
  let parsed: RawNode[];
  try {
    parsed = parser.parse(body) as RawNode[];
  } catch {
    throw badRequest('malformed XML');
  }
  const roots = parsed.map((raw) => resolveNode(raw, new Map([['xml', XML_NS]]), 0)).filter((node): node is XmlElement => node !== undefined && isElement(node));
  if (roots.length !== 1) throw badRequest('malformed XML');
  return roots[0]!;
}

/** The child elements of `element` (text between them dropped). */
export function childElements(element: XmlElement): XmlElement[] {
  return element.children.filter(isElement);
}

/** The first child element `{ns}name`, if any. */
export function findChild(element: XmlElement, ns: string, name: string): XmlElement | undefined {
  return childElements(element).find((child) => child.ns === ns && child.name === name);
}

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

export function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

/**
 * Serialises an element as a self-contained fragment: every namespace it uses is declared on
 * the fragment itself with generated prefixes, so it stays well-formed wherever it is placed.
 * Elements in no namespace are written unprefixed; no default namespace is ever declared, so
 * they keep meaning "no namespace".
 */
export function serializeElement(element: XmlElement): string {
  const prefixes = new Map<string, string>();
  const prefixOf = (ns: string) => {
    // `xml:lang` and friends: that namespace is bound to `xml` and may never be declared.
    if (ns === XML_NS) return 'xml';
    let prefix = prefixes.get(ns);
    if (prefix === undefined) {
      prefix = ns === DAV ? 'D' : `ns${prefixes.size}`;
      prefixes.set(ns, prefix);
    }
    return prefix;
  };
  const open = (node: XmlElement) => {
    const tag = node.ns === '' ? node.name : `${prefixOf(node.ns)}:${node.name}`;
    let attributes = '';
    for (const [key, value] of Object.entries(node.attrs)) {
      const match = /^\{(.*)\}(.+)$/.exec(key);
      const name = match ? `${prefixOf(match[1]!)}:${match[2]}` : key;
      attributes += ` ${name}="${escapeAttribute(value)}"`;
    }
    return { tag, attributes };
  };
  const inner = (node: XmlElement): string => node.children.map((child) => (isElement(child) ? render(child) : escapeText(child.text))).join('');
  const render = (node: XmlElement): string => {
    const { tag, attributes } = open(node);
    const content = inner(node);
    return content === '' ? `<${tag}${attributes}/>` : `<${tag}${attributes}>${content}</${tag}>`;
  };
  // The top element's own names first, then its content: every prefix is known before the
  // declarations are written onto the top element.
  const { tag, attributes } = open(element);
  const content = inner(element);
  const declarations = [...prefixes].map(([ns, prefix]) => ` xmlns:${prefix}="${escapeAttribute(ns)}"`).join('');
  return content === '' ? `<${tag}${declarations}${attributes}/>` : `<${tag}${declarations}${attributes}>${content}</${tag}>`;
}

/** `<prefix:name xmlns:prefix="ns"/>` for a property name alone (propname answers, 404 lists). */
export function emptyElement(ns: string, name: string): string {
  if (ns === DAV) return `<D:${name}/>`;
  if (ns === '') return `<${name} xmlns=""/>`;
  return `<x:${name} xmlns:x="${escapeAttribute(ns)}"/>`;
}
