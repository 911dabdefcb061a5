import { TextInlineLimit, type ResourceType } from '@burrow/protocol';
import { IS_DIR, IS_FILE, IS_PRESENT, IS_SYMLINK, type StatColumns } from './entry-stats.js';
import { dateText, goFileMode, localOffsetMinutes, zoneText } from './file-info.js';
import { needsSniff, typeWithoutContent } from './file-types.js';

/**
 * `extensionOf` for names taken one after the other: while the extension repeats, as it does
 * in most big folders, the one string is answered again rather than a new one made for each name.
 */
export class EntryExtensions {
  #last = '';

  of(name: string): string {
    const dot = name.lastIndexOf('.');
    if (dot < 0) return '';
    const last = this.#last;
    if (name.length - dot === last.length && name.endsWith(last)) return last;
    this.#last = name.slice(dot);
    return this.#last;
  }
}

/**
 * Types a folder's entries without reading them. Extensions repeat a lot in big folders, and the
 * decision depends only on the extension and on the size class (special file, empty, past the
 * text limit, other): it is worked out once per pair, one map per size class so no key has to be
 * built. `sniff` says the first bytes could change the type (see `detectTypeOf`).
 */
export class EntryTyper {
  readonly #decisions = [0, 1, 2, 3].map(() => new Map<string, { type: ResourceType; code: number; sniff: boolean }>());

  /** The type of a non-folder entry (with its `TYPE_CODES` index); the caller has ruled out folders and dangling links. */
  decide(name: string, extension: string, flags: number, size: number): { type: ResourceType; code: number; sniff: boolean } {
    const byExtension = this.#decisions[!(flags & IS_FILE) ? 0 : size === 0 ? 1 : size > TextInlineLimit ? 2 : 3]!;
    let decision = byExtension.get(extension);
    if (decision === undefined) {
      const shape = { isFile: (flags & IS_FILE) !== 0, size };
      const type = typeWithoutContent(name, shape);
      decision = { type, code: typeCode(type), sniff: needsSniff(name, shape) };
      byExtension.set(extension, decision);
    }
    return decision;
  }
}

/** Types in a fixed order, so (mode, flags, type) can be one number, and a type one byte. */
export const TYPE_CODES: readonly ResourceType[] = ['', 'blob', 'text', 'textImmutable', 'video', 'audio', 'image', 'pdf', 'invalid_link'];

/** A type's index in `TYPE_CODES`. */
export function typeCode(type: ResourceType): number {
  const code = TYPE_CODES.indexOf(type);
  if (code < 0) throw new Error(`no code for type ${type}`);
  return code;
}

/** Type code of an entry a worker did not write (see `WrittenItems`). */
export const NOT_WRITTEN = 255;
const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;
const NAME_FIELD = Buffer.from('","name":"');
const SIZE_FIELD = Buffer.from('","size":');
/** Most UTF-8 bytes one UTF-16 unit of a name takes in JSON (`\u001f`, or a lone surrogate as `\udc80`). */
const WORST_BYTES_PER_UNIT = 6;
/** Runs of items written elsewhere from this long on are sent from where they are, not copied. */
const SHARED_RUN_BYTES = 64 * 1024;
/** Room for an item's fields besides its name, extension, folder path and subtitles. */
const ITEM_FIELDS_BYTES = 256;

/** Copies `piece` into `into` at `at`; answers the position after it. */
function put(into: Buffer, at: number, piece: Uint8Array): number {
  into.set(piece, at);
  return at + piece.length;
}

/** `put` for the few bytes between fields, copied one by one. */
function putShort(into: Buffer, at: number, piece: Uint8Array): number {
  for (let index = 0; index < piece.length; index++) into[at + index] = piece[index]!;
  return at + piece.length;
}

/** Writes a number from 0 to 99 with two digits; answers the position after it. */
function putTwoDigits(into: Buffer, at: number, value: number): number {
  into[at] = 48 + Math.floor(value / 10);
  into[at + 1] = 48 + (value % 10);
  return at + 2;
}

/** Writes a whole number as JSON does (`String(value)`); answers the position after it. */
function putWholeNumber(into: Buffer, at: number, value: number): number {
  if (!(Number.isSafeInteger(value) && value >= 0)) return at + into.write(String(value), at, 'latin1');
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  let rest = value;
  for (let index = digits - 1; index >= 0; index--) {
    into[at + index] = 48 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits;
}

/**
 * Writes listing items as JSON bytes into a growing buffer: the very text `JSON.stringify` makes
 * of them, without an object per item, a 100,000-item array or a 19 MB string. Everything but the
 * name, size and time is shared with other items (the folder path, the fields after the
 * extension, the fields after the time) and copied from cached bytes; ASCII names are copied
 * code unit by code unit, and the time is written from the cached text of its second. So a big
 * listing leaves next to no garbage behind.
 */
export class ItemWriter {
  #buffer: Buffer;
  #length = 0;
  #written = 0;
  /** Parts of the text already complete: regions of earlier buffers, and long runs of items written elsewhere. */
  readonly #parts: Buffer[] = [];
  /** Where the part still being written starts in the buffer. */
  #partStart = 0;
  /** Bytes of the runs taken from elsewhere. */
  #sharedBytes = 0;
  /** `{"path":"` and the folder's path with its slash, as JSON. */
  readonly #pathStart: Buffer;
  /** `,"extension":…,"modified":"` by extension. */
  readonly #afterExtension = new Map<string, Buffer>();
  /** The extension of the item written last, and its entry there. */
  #lastExtension: string | undefined;
  #lastMiddle: Buffer | undefined;
  /** `","mode":…,"type":…` by (mode, flags, type). */
  readonly #afterTime = new Map<number, Buffer>();
  /** The second of the item written last, its local day and offset, and what those are written as. */
  #second = Number.NaN;
  #day = Number.NaN;
  #offset = Number.NaN;
  #dateTime: Buffer = Buffer.alloc(0);
  #zone: Buffer = Buffer.alloc(0);

  /** Whether every item, the first too, gets a leading comma. */
  readonly #allCommas: boolean;

  /**
   * `head` is written first (the document up to the items), `folderVirtual` is the folder the
   * items are in; with `allCommas`, the first item gets its leading comma too (items to be put
   * after others, see `writeItems`). The buffer is never a slice of Node's shared pool, so its
   * memory may be handed to another thread.
   */
  constructor(head: string, folderVirtual: string, estimate: number, allCommas = false) {
    this.#allCommas = allCommas;
    const headBytes = Buffer.from(head);
    this.#buffer = Buffer.allocUnsafeSlow(Math.max(1024, headBytes.length + estimate));
    this.#length = put(this.#buffer, 0, headBytes);
    this.#pathStart = Buffer.from('{"path":' + JSON.stringify(folderVirtual === '/' ? '/' : folderVirtual + '/').slice(0, -1));
  }

  /** Makes room for `more` bytes. */
  #reserve(more: number): Buffer {
    if (this.#length + more > this.#buffer.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.#length + more, this.#buffer.length * 2));
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    return this.#buffer;
  }

  /** Ends the part being written in the buffer (when it has anything). */
  #endPart(): void {
    if (this.#length > this.#partStart) this.#parts.push(this.#buffer.subarray(this.#partStart, this.#length));
    this.#partStart = this.#length;
  }

  /**
   * Appends one item: an entry's name, extension, stat columns (`mode` is POSIX `st_mode`) and
   * type (its `TYPE_CODES` index); `subtitles` (a JSON array) is written as its last field.
   */
  add(name: string, extension: string, flags: number, mode: number, size: number, mtimeSeconds: number, mtimeNanos: number, type: number, subtitles?: string): void {
    const subtitlesField = subtitles === undefined ? undefined : Buffer.from(',"subtitles":' + subtitles);
    const buffer = this.#reserve(ITEM_FIELDS_BYTES + this.#pathStart.length + (name.length * 2 + extension.length) * WORST_BYTES_PER_UNIT + (subtitlesField?.length ?? 0));
    let at = this.#length;
    if (this.#allCommas || this.#written > 0) buffer[at++] = COMMA;
    at = put(buffer, at, this.#pathStart);
    const nameStart = at;
    // The name goes in twice, in the path and after NAME_FIELD: a plain name is copied to both
    // places at once.
    const length = name.length;
    const second = nameStart + length + NAME_FIELD.length;
    let plain = true;
    for (let index = 0; index < length; index++) {
      const code = name.charCodeAt(index);
      // Printable ASCII but `"` and `\` is the same in JSON.
      if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) {
        plain = false;
        break;
      }
      buffer[at + index] = code;
      buffer[second + index] = code;
    }
    if (plain) {
      putShort(buffer, at + length, NAME_FIELD);
      at = second + length;
    } else {
      at = nameStart + buffer.write(JSON.stringify(name).slice(1, -1), nameStart, 'utf8');
      const nameEnd = at;
      at = putShort(buffer, at, NAME_FIELD);
      buffer.copyWithin(at, nameStart, nameEnd);
      at += nameEnd - nameStart;
    }
    at = putShort(buffer, at, SIZE_FIELD);
    at = putWholeNumber(buffer, at, size);
    let middle = extension === this.#lastExtension ? this.#lastMiddle : this.#afterExtension.get(extension);
    if (middle === undefined) {
      middle = Buffer.from(',"extension":' + JSON.stringify(extension) + ',"modified":"');
      this.#afterExtension.set(extension, middle);
    }
    this.#lastExtension = extension;
    this.#lastMiddle = middle;
    at = put(buffer, at, middle);
    at = this.#putModified(buffer, at, mtimeSeconds, mtimeNanos);
    const goMode = goFileMode(mode);
    const key = (goMode * 4 + ((flags & IS_DIR ? 1 : 0) | (flags & IS_SYMLINK ? 2 : 0))) * 16 + type;
    let end = this.#afterTime.get(key);
    if (end === undefined) {
      end = Buffer.from(`","mode":${goMode},"isDir":${(flags & IS_DIR) !== 0},"isSymlink":${(flags & IS_SYMLINK) !== 0},"type":${JSON.stringify(TYPE_CODES[type])}`);
      this.#afterTime.set(key, end);
    }
    at = put(buffer, at, end);
    if (subtitlesField) at = put(buffer, at, subtitlesField);
    buffer[at++] = CLOSE_BRACE;
    this.#length = at;
    this.#written++;
  }

  /** The time as `formatModifiedParts` writes it (the date and time, the trimmed fraction, the offset). */
  #putModified(buffer: Buffer, at: number, seconds: number, nanos: number): number {
    if (seconds !== this.#second) {
      const offset = localOffsetMinutes(seconds);
      const local = seconds + offset * 60;
      const day = Math.floor(local / 86_400);
      if (day !== this.#day || offset !== this.#offset) {
        // The date, then room for `Thh:mm:ss`, rewritten for each new second of the day.
        this.#dateTime = Buffer.from(dateText(day) + 'Thh:mm:ss');
        this.#zone = Buffer.from(zoneText(offset));
        this.#day = day;
        this.#offset = offset;
      }
      const secondOfDay = local - day * 86_400;
      let clock = this.#dateTime.length - 8;
      clock = putTwoDigits(this.#dateTime, clock, Math.floor(secondOfDay / 3600)) + 1;
      clock = putTwoDigits(this.#dateTime, clock, Math.floor(secondOfDay / 60) % 60) + 1;
      putTwoDigits(this.#dateTime, clock, secondOfDay % 60);
      this.#second = seconds;
    }
    at = put(buffer, at, this.#dateTime);
    if (nanos !== 0) {
      let digits = 9;
      let fraction = nanos;
      while (fraction % 10 === 0) {
        fraction /= 10;
        digits--;
      }
      buffer[at++] = 0x2e;
      for (let index = digits - 1; index >= 0; index--) {
        buffer[at + index] = 48 + (fraction % 10);
        fraction = Math.floor(fraction / 10);
      }
      at += digits;
    }
    return put(buffer, at, this.#zone);
  }

  /**
   * Appends `count` items written before (see `writeItems`): bytes `start` to `end` of `source`,
   * each item with its leading comma, which the listing's first item goes without.
   */
  addWritten(source: Buffer, start: number, end: number, count: number): void {
    if (this.#written === 0 && !this.#allCommas) start++;
    this.#written += count;
    if (end - start >= SHARED_RUN_BYTES) {
      // A long run is sent from where it is rather than copied.
      this.#endPart();
      this.#parts.push(source.subarray(start, end));
      this.#sharedBytes += end - start;
      return;
    }
    const buffer = this.#reserve(end - start);
    this.#length += source.copy(buffer, this.#length, start, end);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.#sharedBytes + this.#length;
  }

  /** Appends text after the items (the rest of the document). */
  append(text: string): void {
    this.#reserve(text.length * 3);
    this.#length += this.#buffer.write(text, this.#length, 'utf8');
  }

  /** The text, in parts to be sent one after the other. */
  get parts(): Buffer[] {
    this.#endPart();
    return this.#parts;
  }

  /** The text in one buffer (for writers that take no runs from elsewhere). */
  get bytes(): Buffer {
    return this.#sharedBytes === 0 ? this.#buffer.subarray(0, this.#length) : Buffer.concat(this.parts);
  }
}

/** How a stat worker typed entries, by their index in the names it was given (see `typeEntries`). */
export type EntryTypes = {
  /** `TYPE_CODES` index, or NOT_WRITTEN for entries it leaves to the listing (links, vanished). */
  typeCodes: Uint8Array;
  /** 1 where the first bytes could change the type. */
  sniff: Uint8Array;
};

/** Types stat'ed entries as a listing does without reading them; links are left to the listing, which follows them. */
export function typeEntries(names: readonly string[], columns: StatColumns): EntryTypes {
  const count = names.length;
  const typeCodes = new Uint8Array(count).fill(NOT_WRITTEN);
  const sniff = new Uint8Array(count);
  const typer = new EntryTyper();
  const extensions = new EntryExtensions();
  for (let index = 0; index < count; index++) {
    const flags = columns.flags[index]!;
    if (!(flags & IS_PRESENT) || flags & IS_SYMLINK) continue;
    if (flags & IS_DIR) {
      typeCodes[index] = 0;
      continue;
    }
    const name = names[index]!;
    const decision = typer.decide(name, extensions.of(name), flags, columns.sizes[index]!);
    typeCodes[index] = decision.code;
    if (decision.sniff) sniff[index] = 1;
  }
  return { typeCodes, sniff };
}

/**
 * Items a stat worker wrote for a run of a folder's names, in read order, each with its leading
 * comma: item `i` is bytes `offsets[i]` to `offsets[i + 1]` of `bytes`, written with the type its
 * `typeEntries` gave, so items listed in read order are copied in one piece. Entries typed
 * NOT_WRITTEN (links, which the scope follows; entries that vanished) have no bytes. `first` is
 * the index of the run's first name.
 */
export type WrittenItems = { bytes: Uint8Array; offsets: Uint32Array; first: number };

/**
 * Writes the items of stat'ed and typed entries as a listing of the folder would. A listing that
 * types an entry otherwise (its first bytes read) or adds its subtitles writes that item itself.
 */
export function writeItems(folderVirtual: string, names: readonly string[], columns: StatColumns, types: EntryTypes, first: number): WrittenItems {
  const count = names.length;
  const offsets = new Uint32Array(count + 1);
  const items = new ItemWriter('', folderVirtual, count * 200, true);
  const extensions = new EntryExtensions();
  for (let index = 0; index < count; index++) {
    offsets[index] = items.length;
    const code = types.typeCodes[index]!;
    if (code === NOT_WRITTEN) continue;
    const name = names[index]!;
    items.add(name, extensions.of(name), columns.flags[index]!, columns.modes[index]!, columns.sizes[index]!, columns.mtimeSeconds[index]!, columns.mtimeNanos[index]!, code);
  }
  offsets[count] = items.length;
  return { bytes: items.bytes, offsets, first };
}
