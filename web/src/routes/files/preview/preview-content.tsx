import type { Resource, ResourceItem } from '@burrow/protocol';
import { TextInlineLimit } from '@burrow/protocol/constants';
import { FileQuestion, Link2Off } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { previewUrl, subtitleUrl } from '../../../api/previews';
import { rawUrl } from '../../../api/resources';
import { FileCard } from '../../../components/preview/file-card';
import { ImageViewer } from '../../../components/preview/image-viewer';
import { AudioPlayer, VideoPlayer } from '../../../components/preview/media-player';
import type { SwipeDirection } from '../../../components/preview/use-zoom-pan';
import { PdfPreview } from '../../../features/preview/pdf-preview';
import { currentLocaleTag } from '../../../i18n/i18n';
import { formatModified } from '../../../lib/format-date';
import { formatSize } from '../../../lib/format-size';
import { useAppSettings } from '../../../stores/app-settings-store';
import { filesRoute, parentPath } from '../../../lib/paths';
import { preselect } from '../../../stores/selection-store';
import { useSession } from '../../../stores/session-store';
import { subtitleTracks } from './subtitle-tracks';

/** Formats browsers cannot show: the server's resized preview (JPEG) stands in for the original. */
const ConvertedImagePattern = /\.(tiff?|heic|heif)$/i;

export type ImageSources = { thumbUrl?: string; displayUrl: string; fullUrl?: string };

/**
 * Where an image's renditions come from: the thumbnail when thumbnails are on, the resized
 * preview when resizing is on (always for TIFF and HEIC, which only the server can convert),
 * and the original for full detail.
 */
export function imageSources(file: Pick<ResourceItem, 'path' | 'name' | 'modified'>, settings: { EnableThumbs: boolean; ResizePreview: boolean }): ImageSources {
  const isConverted = ConvertedImagePattern.test(file.name);
  const original = rawUrl(file.path, { inline: true });
  return {
    thumbUrl: settings.EnableThumbs ? previewUrl(file.path, 'thumb', file.modified) : undefined,
    displayUrl: settings.ResizePreview || isConverted ? previewUrl(file.path, 'big', file.modified) : original,
    fullUrl: isConverted ? undefined : original,
  };
}

type PreviewContentProps = {
  file: Resource;
  onSwipe: (direction: SwipeDirection) => void;
};

/** The file itself: image, video, audio or PDF, or a card with its details and a download button. */
export function PreviewContent({ file, onSwipe }: PreviewContentProps) {
  const { t } = useTranslation();
  const settings = useAppSettings((state) => state.settings);
  const user = useSession((state) => state.user);
  const canDownload = user?.perm.download ?? false;
  const locale = currentLocaleTag();

  const card = (message: string, icon?: ReactNode) => (
    <div className="preview__card">
      <FileCard
        name={file.name}
        icon={icon}
        message={message}
        details={[
          { label: t('files.size'), value: formatSize(file.size, locale) },
          { label: t('files.modified'), value: <time dateTime={file.modified}>{formatModified(file.modified, { absolute: user?.dateFormat ?? false, locale })}</time> },
        ]}
        download={canDownload ? { url: rawUrl(file.path), label: t('buttons.download') } : undefined}
        back={{ to: filesRoute(parentPath(file.path)), label: t('files.parentFolder'), onClick: () => preselect(file.path) }}
      />
    </div>
  );

  // Without the download permission the server sends none of the file's content.
  if (!canDownload && ['image', 'video', 'audio', 'pdf'].includes(file.type)) return card(t('preview.noDownload'));

  switch (file.type) {
    case 'image':
      return (
        <ImageViewer
          name={file.name}
          {...imageSources(file, settings)}
          onSwipe={onSwipe}
          labels={{
            zoomIn: t('preview.zoomIn'),
            zoomOut: t('preview.zoomOut'),
            resetZoom: t('preview.resetZoom'),
            controls: t('preview.zoomControls'),
            loadError: t('preview.imageError'),
          }}
        />
      );
    case 'video': {
      const tracks = subtitleTracks(file.name, file.subtitles ?? []).map((track) => ({ ...track, url: subtitleUrl(track.path) }));
      return <VideoPlayer url={rawUrl(file.path, { inline: true })} name={file.name} tracks={tracks} />;
    }
    case 'audio':
      return <AudioPlayer url={rawUrl(file.path, { inline: true })} name={file.name} />;
    case 'pdf':
      return (
        <PdfPreview
          url={rawUrl(file.path, { inline: true })}
          downloadUrl={rawUrl(file.path)}
          name={file.name}
          labels={{
            viewer: {
              toolbar: t('preview.pdf.toolbar'),
              previousPage: t('preview.pdf.previousPage'),
              nextPage: t('preview.pdf.nextPage'),
              // Filled in by the viewer, page by page.
              pageOf: t('preview.pdf.pageOf', { page: '{page}', count: '{count}' }),
              zoomIn: t('preview.zoomIn'),
              zoomOut: t('preview.zoomOut'),
              fitWidth: t('preview.pdf.fitWidth'),
              zoom: t('preview.zoomControls'),
              document: t('preview.pdf.pages'),
              loading: t('preview.pdf.loading'),
              damaged: t('preview.pdf.damaged'),
              encrypted: t('preview.pdf.encrypted'),
              unavailable: t('preview.pdf.unavailable'),
            },
            progress: (received, total) => t('preview.pdf.progress', { received, total }),
            loadFailed: (reason) => t('preview.pdf.loadFailed', { reason }),
            tooLarge: (limit) => t('preview.pdf.tooLarge', { limit }),
            size: t('files.size'),
            download: t('buttons.download'),
          }}
        />
      );
    case 'invalid_link':
      return card(t('preview.brokenLink'), <Link2Off size={56} strokeWidth={1.25} />);
    default:
      if (file.type === 'blob' && file.size > TextInlineLimit) return card(t('preview.tooLarge'));
      return card(t('preview.noPreview'), <FileQuestion size={56} strokeWidth={1.25} />);
  }
}
