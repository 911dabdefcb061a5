/**
 * One CSV cell (RFC 4180): always quoted, quotes doubled. A cell a spreadsheet would take for a
 * formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`, so
 * a file name or user name chosen by someone else cannot run as one when the export is opened.
 */
function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** One CSV record, CRLF-terminated. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
