import type { Resource } from '@burrow/protocol';
import { FileText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { rawUrl } from '../../../api/resources';
import { FileCard } from '../../../components/preview/file-card';
import { currentLocaleTag } from '../../../i18n/i18n';
import { formatModified } from '../../../lib/format-date';
import { formatSize } from '../../../lib/format-size';
import { filesRoute, parentPath } from '../../../lib/paths';
import { preselect } from '../../../stores/selection-store';
import { useSession } from '../../../stores/session-store';

/** A text file whose content the server did not send: too large to edit here, or not downloadable. */
export function TooLargeCard({ file, canDownload }: { file: Resource; canDownload: boolean }) {
  const { t } = useTranslation();
  const absolute = useSession((state) => state.user?.dateFormat ?? false);
  const locale = currentLocaleTag();
  return (
    <div className="editor-view editor-view--card">
      <FileCard
        name={file.name}
        icon={<FileText size={56} strokeWidth={1.25} />}
        message={canDownload ? t('editor.tooLarge') : t('editor.noDownload')}
        details={[
          { label: t('files.size'), value: formatSize(file.size, locale) },
          { label: t('files.modified'), value: <time dateTime={file.modified}>{formatModified(file.modified, { absolute, locale })}</time> },
        ]}
        download={canDownload ? { url: rawUrl(file.path), label: t('buttons.download') } : undefined}
        back={{ to: filesRoute(parentPath(file.path)), label: t('files.parentFolder'), onClick: () => preselect(file.path) }}
      />
    </div>
  );
}
