import type { ResourceItem } from '@burrow/protocol';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import './share-preview.css';

export type PreviewSources = {
  /** A resized image, or the media file itself for audio and video. */
  src: string;
  /** Subtitle tracks of a video, as WebVTT addresses. */
  subtitles: Array<{ src: string; label: string }>;
};

/** True for the kinds the share page can show in place. */
export function isPreviewable(item: Pick<ResourceItem, 'isDir' | 'type'>): boolean {
  return !item.isDir && (item.type === 'image' || item.type === 'audio' || item.type === 'video');
}

/** The preview area: the selected (or shared) image, audio or video. */
export function SharePreview({ item, sources }: { item: Pick<ResourceItem, 'name' | 'type'>; sources: PreviewSources }) {
  const { t } = useTranslation();
  const headingId = useId();
  let media;
  if (item.type === 'image') {
    media = <img className="share-preview__image" src={sources.src} alt={item.name} />;
  } else if (item.type === 'audio') {
    media = <audio className="share-preview__audio" src={sources.src} controls preload="metadata" aria-label={item.name} />;
  } else {
    media = (
      <video className="share-preview__video" src={sources.src} controls preload="metadata" playsInline aria-label={item.name}>
        {sources.subtitles.map((track, index) => (
          <track key={track.src} kind="subtitles" src={track.src} label={track.label} default={index === 0} />
        ))}
      </video>
    );
  }
  return (
    <section className="share-preview card" aria-labelledby={headingId}>
      <h2 id={headingId} className="share-preview__heading">
        {t('share.preview')}
        <span className="share-preview__name">{item.name}</span>
      </h2>
      {/* A new element for every item, so no player keeps playing the previous one. */}
      <div key={sources.src} className="share-preview__media">
        {media}
      </div>
    </section>
  );
}
