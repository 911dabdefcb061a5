/** The upload-only part of the new-link form, as typed. Sizes are in MiB, as the app shows sizes. */
export type FileRequestFormValues = {
  uploadOnly: boolean;
  note: string;
  maxFileSize: string;
  maxTotalSize: string;
  maxFiles: string;
};

export const emptyFileRequestForm: FileRequestFormValues = { uploadOnly: false, note: '', maxFileSize: '', maxTotalSize: '', maxFiles: '' };

/** Longest note the server accepts (the protocol's limit). */
export const MaxNoteLength = 2000;

const Mebibyte = 1024 * 1024;

/** MiB as typed (decimals allowed) to bytes; empty is 0 (no limit); undefined when invalid. */
export function parseMegabytes(text: string): number | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return 0;
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined;
  const bytes = Math.round(Number(trimmed) * Mebibyte);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** A file count as typed: empty is 0 (no limit); undefined when not a whole number. */
export function parseCount(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!/^\d{1,9}$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

export type FileRequestLimits = { note: string; maxFileSize: number; maxTotalSize: number; maxFiles: number };

/** The limits to send, or the name of the first field that is not valid. */
export function readFileRequestForm(values: FileRequestFormValues): { limits: FileRequestLimits } | { invalid: 'maxFileSize' | 'maxTotalSize' | 'maxFiles' | 'note' } {
  const maxFileSize = parseMegabytes(values.maxFileSize);
  if (maxFileSize === undefined) return { invalid: 'maxFileSize' };
  const maxTotalSize = parseMegabytes(values.maxTotalSize);
  if (maxTotalSize === undefined) return { invalid: 'maxTotalSize' };
  const maxFiles = parseCount(values.maxFiles);
  if (maxFiles === undefined) return { invalid: 'maxFiles' };
  const note = values.note.trim();
  if (note.length > MaxNoteLength) return { invalid: 'note' };
  return { limits: { note, maxFileSize, maxTotalSize, maxFiles } };
}
