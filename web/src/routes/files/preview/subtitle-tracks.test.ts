import { describe, expect, it } from 'vitest';
import { subtitleTracks } from './subtitle-tracks';

describe('subtitle tracks', () => {
  it('takes the language from the name and labels each track', () => {
    expect(subtitleTracks('clip.mp4', ['/v/clip.vtt', '/v/clip.en.srt', '/v/subs/clip.pt_BR.ass', '/v/clip.forced.vtt'])).toEqual([
      { path: '/v/clip.vtt', label: 'clip', language: undefined },
      { path: '/v/clip.en.srt', label: 'en', language: 'en' },
      { path: '/v/subs/clip.pt_BR.ass', label: 'pt_BR', language: 'pt-BR' },
      { path: '/v/clip.forced.vtt', label: 'forced', language: undefined },
    ]);
  });

  it('keeps labels apart when two files would read the same', () => {
    const tracks = subtitleTracks('Movie.mkv', ['/m/Movie.en.vtt', '/m/subs/Movie.en.srt', '/m/other.vtt']);
    expect(tracks.map((track) => track.label)).toEqual(['en', 'en (2)', 'other']);
  });
});
