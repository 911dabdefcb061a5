import { Type, type Static } from '@sinclair/typebox';
import { Sorting } from './users.js';

export const ResourceTypes = ['', 'text', 'textImmutable', 'image', 'video', 'audio', 'pdf', 'blob', 'invalid_link'] as const;
export type ResourceType = (typeof ResourceTypes)[number];

export const Resolution = Type.Object({ width: Type.Integer(), height: Type.Integer() });

const itemFields = {
  path: Type.String(),
  name: Type.String(),
  size: Type.Number(),
  extension: Type.String(),
  modified: Type.String(),
  mode: Type.Number(),
  isDir: Type.Boolean(),
  isSymlink: Type.Boolean(),
  type: Type.String(),
  subtitles: Type.Optional(Type.Array(Type.String())),
  resolution: Type.Optional(Resolution),
};

export const ResourceItem = Type.Object(itemFields);
export type ResourceItem = Static<typeof ResourceItem>;

export const Resource = Type.Object({
  ...itemFields,
  items: Type.Optional(Type.Array(ResourceItem)),
  numDirs: Type.Optional(Type.Integer()),
  numFiles: Type.Optional(Type.Integer()),
  sorting: Type.Optional(Sorting),
  /**
   * Set on a folder asked for with `?first=N` that holds more than N listable entries: `items`
   * are only its first N in the listing's order, while `numDirs` and `numFiles` count them all.
   */
  partial: Type.Optional(Type.Boolean()),
  content: Type.Optional(Type.String()),
  checksums: Type.Optional(Type.Record(Type.String(), Type.String())),
  token: Type.Optional(Type.String()),
});
export type Resource = Static<typeof Resource>;

export const RecursiveItem = Type.Object({
  path: Type.String(),
  name: Type.String(),
  size: Type.Number(),
  modified: Type.String(),
  isDir: Type.Boolean(),
});
export type RecursiveItem = Static<typeof RecursiveItem>;

export const ChecksumAlgorithms = ['md5', 'sha1', 'sha256', 'sha512'] as const;
export type ChecksumAlgorithm = (typeof ChecksumAlgorithms)[number];

/** Archive formats by `algo=` value, with their file suffix. */
export const ArchiveFormats = {
  zip: '.zip',
  tar: '.tar',
  targz: '.tar.gz',
  tarbz2: '.tar.bz2',
  tarxz: '.tar.xz',
  tarlz4: '.tar.lz4',
  tarsz: '.tar.sz',
  tarbr: '.tar.br',
  tarzst: '.tar.zst',
} as const;
export type ArchiveFormat = keyof typeof ArchiveFormats;

export { PatchActions, type PatchAction } from './constants.js';

export const Usage = Type.Object({ total: Type.Number(), used: Type.Number() });
export type Usage = Static<typeof Usage>;

export const PreviewSizes = ['thumb', 'big'] as const;
export type PreviewSize = (typeof PreviewSizes)[number];

// Kept with the schema-free constants so the web app can import it too.
export { TextInlineLimit } from './constants.js';
