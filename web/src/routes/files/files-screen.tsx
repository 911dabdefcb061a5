import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from '../../lib/router';
import { errorCodeOf } from '../../api/api-error';
import { ErrorScreen } from '../../components/errors/error-screen';
import { withoutTrailingSlash } from '../../lib/paths';
import { clearSelection } from '../../stores/selection-store';
import { useSession } from '../../stores/session-store';
import { usePageTitle } from '../use-page-title';
import { asFolder } from './file-operations';
import { FileView } from './file-view';
import { filesPathOf } from './files-path';
import { FilesHeading } from './files-heading';
import { FolderView } from './folder-view';
import { useResource } from './use-resource';
import './files-screen.css';

/** The files screen: a folder's listing or a file, under breadcrumbs, with loading and error states. */
export function FilesScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const path = filesPathOf(location.pathname) ?? '/';
  const user = useSession((state) => state.user);
  const resource = useResource(path);
  usePageTitle(t('titles.files'));
  // Leaving the files screen clears the selection; folders scope it as they are shown.
  useEffect(() => clearSelection, []);

  let body;
  if (resource.data && user) {
    body = resource.data.isDir ? (
      <FolderView folder={asFolder(path)} resource={resource.data} user={user} isRefreshing={resource.isFetching} />
    ) : (
      <FileView file={resource.data} user={user} />
    );
  } else if (resource.isError) {
    body = <ErrorScreen code={errorCodeOf(resource.error)} />;
  } else {
    body = (
      <div className="files__loading" role="status">
        <div className="spinner" aria-hidden="true" />
        <span className="visually-hidden">{t('common.loading')}</span>
      </div>
    );
  }

  return (
    <div className="page files">
      {/* A folder shows its own heading, whose breadcrumbs take dropped items. */}
      {!resource.data?.isDir && <FilesHeading path={resource.data ? withoutTrailingSlash(path) : path} />}
      {body}
    </div>
  );
}
