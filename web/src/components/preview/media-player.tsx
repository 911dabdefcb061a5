import { Music } from 'lucide-react';
import './media-player.css';

export type SubtitleTrack = {
  url: string;
  /** Shown in the player's caption menu. */
  label: string;
  /** BCP 47 language when the file name tells it (`clip.en.vtt`). */
  language?: string;
};

/** A video with its subtitle tracks; the first track is on by default. */
export function VideoPlayer({ url, name, tracks }: { url: string; name: string; tracks: SubtitleTrack[] }) {
  return (
    <div className="media-player media-player--video">
      {/* The browser's own controls are keyboard and screen-reader accessible. */}
      <video className="media-player__video" src={url} controls preload="metadata" playsInline aria-label={name}>
        {tracks.map((track, index) => (
          <track key={track.url} kind="subtitles" src={track.url} label={track.label} srcLang={track.language} default={index === 0} />
        ))}
      </video>
    </div>
  );
}

export function AudioPlayer({ url, name }: { url: string; name: string }) {
  return (
    <div className="media-player media-player--audio">
      <div className="media-player__cover" aria-hidden="true">
        <Music size={64} strokeWidth={1.25} />
      </div>
      <p className="media-player__title">{name}</p>
      <audio className="media-player__audio" src={url} controls preload="metadata" aria-label={name} />
    </div>
  );
}
