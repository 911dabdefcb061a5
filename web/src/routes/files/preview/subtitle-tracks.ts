import { baseName } from '../../../lib/paths';

export type TrackInfo = { path: string; label: string; language?: string };

/** Two- or three-letter language codes with an optional region (`en`, `pt-BR`, `deu`). */
const LanguagePattern = /^[a-z]{2,3}(?:[-_][a-z0-9]{2,4})?$/i;

/**
 * Labels and languages of a video's subtitle files. `clip.en.vtt` beside `clip.mp4` is English
 * (`en`); `subs/clip.forced.srt` is labelled `forced`; a file named like the video is labelled
 * with its own name. Labels are kept unique so the player's menu can tell them apart.
 */
export function subtitleTracks(videoName: string, subtitles: readonly string[]): TrackInfo[] {
  const videoBase = videoName.replace(/\.[^.]+$/, '').toLowerCase();
  const seen = new Map<string, number>();
  return subtitles.map((path) => {
    const fileName = baseName(path);
    const withoutExtension = fileName.replace(/\.[^.]+$/, '');
    let rest = withoutExtension;
    if (withoutExtension.toLowerCase().startsWith(videoBase)) rest = withoutExtension.slice(videoBase.length).replace(/^[._\s-]+/, '');
    const language = rest.split(/[.\s]/).find((part) => LanguagePattern.test(part));
    let label = rest || withoutExtension;
    const count = (seen.get(label) ?? 0) + 1;
    seen.set(label, count);
    if (count > 1) label = `${label} (${count})`;
    return { path, label, language: language?.replace('_', '-') };
  });
}
