import type { Resource, TokenUser } from '@burrow/protocol';
import { ArrowUp, Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { rawUrl } from '../../api/resources';
import { ItemIcon } from '../../components/listing/item-icon';
import { currentLocaleTag } from '../../i18n/i18n';
import { formatModified } from '../../lib/format-date';
import { formatSize } from '../../lib/format-size';
import { filesRoute } from '../../lib/paths';
import { asFolder } from './file-operations';
import type { FileActionContext } from './files-actions';
import { FilesToolbar } from './files-toolbar';
import { useFilesKeyboard } from './use-files-keyboard';

/** A file on its own page: its details, a download button and the way back to its folder. */
export function FileView({ file, user }: { file: Resource; user: TokenUser }) {
  const { t } = useTranslation();
  const locale = currentLocaleTag();
  const folder = asFolder(file.path.slice(0, file.path.lastIndexOf('/') + 1) || '/');
  const context: FileActionContext = { user, folder, resource: file, ordered: [], selection: [file], isListing: false, viewMode: 'list', isMultiple: false };
  useFilesKeyboard(context);
  return (
    <>
      <FilesToolbar context={context} />
      <div className="files__file card">
        <ItemIcon item={file} size={44} className="files__file-icon" />
        <dl className="files__details">
          <dt>{t('files.size')}</dt>
          <dd>{formatSize(file.size, locale)}</dd>
          <dt>{t('files.modified')}</dt>
          <dd>
            <time dateTime={file.modified}>{formatModified(file.modified, { absolute: user.dateFormat, locale })}</time>
          </dd>
        </dl>
        <div className="files__file-actions">
          {user.perm.download && (
            <a className="button button--primary" href={rawUrl(file.path)} download>
              <Download aria-hidden="true" size={18} />
              {t('buttons.download')}
            </a>
          )}
          <Link className="button" to={filesRoute(folder)}>
            <ArrowUp aria-hidden="true" size={18} />
            {t('files.parentFolder')}
          </Link>
        </div>
      </div>
    </>
  );
}
