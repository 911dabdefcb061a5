/**
 * Terminal escape sequences: CSI (colours, cursor moves: ESC [ … final byte, also the one-byte
 * 0x9B form), OSC (titles, links: ESC ] … BEL or ESC \), and the remaining two-byte escapes.
 * The panel shows plain text, so all of them go.
 */
// eslint-disable-next-line no-control-regex -- terminal escapes start with control characters
const escapes = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(escapes, '');
}
