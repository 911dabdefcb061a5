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

/**
 * A PDF in a frame, shown by the browser's own viewer. The frame carries no `sandbox` attribute
 * on purpose: browsers treat their PDF viewer as a plugin, and a sandboxed frame never runs
 * plugins (no sandbox keyword lifts that), so Chromium would show a "blocked" page instead.
 * The document cannot act as the app anyway: the server sends it as `application/pdf` with
 * `nosniff` and a `script-src 'none'` policy, and the viewer runs in its own origin.
 */
export function PdfFrame({ url, name }: { url: string; name: string }) {
  return (
    <div className="media-player media-player--pdf">
      <iframe className="media-player__frame" src={url} title={name} referrerPolicy="same-origin" />
    </div>
  );
}
