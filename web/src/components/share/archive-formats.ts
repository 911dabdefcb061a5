import type { ArchiveFormat } from '@burrow/protocol';

/**
 * The nine archive formats a folder or selection can be downloaded as, by their `algo=` value,
 * in the order they are offered. The record type makes a format missing here a compile error.
 */
const archiveFormatNames: Record<ArchiveFormat, string> = {
  zip: 'zip',
  tar: 'tar',
  targz: 'tar.gz',
  tarbz2: 'tar.bz2',
  tarxz: 'tar.xz',
  tarlz4: 'tar.lz4',
  tarsz: 'tar.sz',
  tarbr: 'tar.br',
  tarzst: 'tar.zst',
};

export const archiveFormats = Object.entries(archiveFormatNames).map(([format, name]) => ({ format: format as ArchiveFormat, name }));
