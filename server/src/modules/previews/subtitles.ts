/**
 * Subtitle conversion to WebVTT, the one format browsers' <track> element plays. SRT differs in
 * little more than its header and decimal commas; ASS/SSA keep their cues in `Dialogue:` lines
 * with styling overrides that WebVTT cannot express and are dropped.
 */

export const SUBTITLE_EXTENSIONS = ['.vtt', '.srt', '.ass', '.ssa'] as const;
export type SubtitleExtension = (typeof SUBTITLE_EXTENSIONS)[number];

/** Decodes subtitle bytes: UTF-8 (BOM dropped), or Windows-1252 for the many legacy files that are not UTF-8. */
export function decodeSubtitle(bytes: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/** `h:mm:ss,mmm` (any hour width, comma or dot, 1–3 fraction digits) → `hh:mm:ss.mmm`. */
function vttTime(hours: string, minutes: string, seconds: string, fraction: string): string {
  return `${hours.padStart(2, '0')}:${minutes}:${seconds}.${fraction.padEnd(3, '0')}`;
}

const SRT_TIME = /(\d+):(\d{2}):(\d{2})[,.](\d{1,3})/g;

export function srtToVtt(text: string): string {
  const lines = decodeLines(text).map((line) =>
    line.includes('-->') ? line.replace(SRT_TIME, (_match, h: string, m: string, s: string, f: string) => vttTime(h, m, s, f)) : line.replace(/<br\s*\/?>/gi, '\n'),
  );
  return 'WEBVTT\n\n' + lines.join('\n').replace(/^\n+/, '').replace(/\n*$/, '\n');
}

function decodeLines(text: string): string[] {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
}

/** ASS `h:mm:ss.cc` (centiseconds) → milliseconds; undefined when malformed. */
function assTimeMs(value: string): number | undefined {
  const match = /^\s*(\d+):(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?\s*$/.exec(value);
  if (!match) return undefined;
  const fraction = match[4] ?? '0';
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  return ((Number(match[1]) * 60 + Number(match[2])) * 60 + Number(match[3])) * 1000 + ms;
}

function formatMs(total: number): string {
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor(total / 60_000) % 60;
  const seconds = Math.floor(total / 1000) % 60;
  const ms = total % 1000;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}.${String(ms).padStart(3, '0')}`;
}

/** Cue text of an ASS dialogue: overrides `{\…}` removed, `\N` line breaks, VTT-escaped. */
function assText(raw: string): string {
  return raw
    .replace(/\{[^}]*\}/g, '')
    .replace(/\\[Nn]/g, '\n')
    .replace(/\\h/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

export function assToVtt(text: string): string {
  let section = '';
  let format = ['layer', 'start', 'end', 'style', 'name', 'marginl', 'marginr', 'marginv', 'effect', 'text'];
  const cues: { start: number; end: number; text: string; order: number }[] = [];
  for (const line of decodeLines(text)) {
    const trimmed = line.trim();
    if (/^\[.*\]$/.test(trimmed)) {
      section = trimmed.toLowerCase();
      continue;
    }
    if (section !== '[events]') continue;
    const colon = trimmed.indexOf(':');
    if (colon === -1) continue;
    const kind = trimmed.slice(0, colon).trim().toLowerCase();
    const rest = trimmed.slice(colon + 1).trimStart();
    if (kind === 'format') {
      format = rest.split(',').map((field) => field.trim().toLowerCase());
      continue;
    }
    if (kind !== 'dialogue') continue;
    // The text is the last field and may itself contain commas.
    const fields: string[] = [];
    let remaining = rest;
    for (let index = 0; index < format.length - 1; index++) {
      const comma = remaining.indexOf(',');
      if (comma === -1) break;
      fields.push(remaining.slice(0, comma));
      remaining = remaining.slice(comma + 1);
    }
    fields.push(remaining);
    const field = (name: string) => fields[format.indexOf(name)];
    const start = assTimeMs(field('start') ?? '');
    const end = assTimeMs(field('end') ?? '');
    const cueText = assText(field('text') ?? '');
    if (start === undefined || end === undefined || end <= start || !cueText) continue;
    cues.push({ start, end, text: cueText, order: cues.length });
  }
  cues.sort((a, b) => a.start - b.start || a.order - b.order);
  return 'WEBVTT\n\n' + cues.map((cue) => `${formatMs(cue.start)} --> ${formatMs(cue.end)}\n${cue.text}\n`).join('\n');
}

/** Converts a subtitle file's text to WebVTT according to its extension (`.vtt` as is). */
export function toWebVtt(extension: SubtitleExtension, text: string): string {
  switch (extension) {
    case '.srt':
      return srtToVtt(text);
    case '.ass':
    case '.ssa':
      return assToVtt(text);
    case '.vtt':
      return text;
  }
}
