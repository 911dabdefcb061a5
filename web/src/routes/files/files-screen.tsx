import type { Resource, ResourceItem } from '@burrow/protocol';
import { ArrowUp, Download, File, Folder, FolderOpen } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { rawUrl } from '../../api/resources';
import { isApiError } from '../../api/api-error';
import { ErrorScreen } from '../../components/errors/error-screen';
import { currentLocaleTag } from '../../i18n/i18n';
import { formatModified } from '../../lib/format-date';
import { formatSize } from '../../lib/format-size';
import { baseName, filesRoute, parentPath } from '../../lib/paths';
import { useSession } from '../../stores/session-store';
import { usePageTitle } from '../use-page-title';
import { filesPathOf } from './files-path';
import { useResource } from './use-resource';
import './files-screen.css';

function ItemRow({ item, absoluteDates }: { item: ResourceItem; absoluteDates: boolean }) {
  const { t } = useTranslation();
  const locale = currentLocaleTag();
  const Icon = item.isDir ? Folder : File;
  return (
    <li className="file-row">
      <Link className="file-row__link" to={filesRoute(item.path + (item.isDir && !item.path.endsWith('/') ? '/' : ''))}>
        <Icon className={item.isDir ? 'file-row__icon file-row__icon--folder' : 'file-row__icon'} aria-hidden="true" size={20} />
        <span className="file-row__name">{item.name}</span>
        <span className="visually-hidden">{item.isDir ? t('files.folder') : t('files.file')}</span>
      </Link>
      <span className="file-row__size">{item.isDir ? '—' : formatSize(item.size, locale)}</span>
      <time className="file-row__modified" dateTime={item.modified}>
        {formatModified(item.modified, { absolute: absoluteDates, locale })}
      </time>
    </li>
  );
}

function FolderView({ folder, absoluteDates }: { folder: Resource; absoluteDates: boolean }) {
  const { t } = useTranslation();
  const items = folder.items ?? [];
  const folders = items.filter((item) => item.isDir);
  const files = items.filter((item) => !item.isDir);
  if (items.length === 0) {
    return (
      <div className="files__empty">
        <FolderOpen aria-hidden="true" size={56} strokeWidth={1.25} />
        <p>{t('files.empty')}</p>
      </div>
    );
  }
  return (
    <div className="files__listing card">
      <div className="file-row file-row--head" aria-hidden="true">
        <span>{t('files.name')}</span>
        <span className="file-row__size">{t('files.size')}</span>
        <span className="file-row__modified">{t('files.modified')}</span>
      </div>
      <ul className="files__list" aria-label={t('files.listLabel')}>
        {[...folders, ...files].map((item) => (
          <ItemRow key={item.path} item={item} absoluteDates={absoluteDates} />
        ))}
      </ul>
    </div>
  );
}

function FileView({ file, canDownload, absoluteDates }: { file: Resource; canDownload: boolean; absoluteDates: boolean }) {
  const { t } = useTranslation();
  const locale = currentLocaleTag();
  return (
    <div className="files__file card">
      <dl className="files__details">
        <dt>{t('files.size')}</dt>
        <dd>{formatSize(file.size, locale)}</dd>
        <dt>{t('files.modified')}</dt>
        <dd>
          <time dateTime={file.modified}>{formatModified(file.modified, { absolute: absoluteDates, locale })}</time>
        </dd>
      </dl>
      {canDownload && (
        <a className="button button--primary" href={rawUrl(file.path)} download>
          <Download aria-hidden="true" size={18} />
          {t('buttons.download')}
        </a>
      )}
    </div>
  );
}

/** First version of the files screen: a plain, accessible listing with links. */
export function FilesScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const path = filesPathOf(location.pathname) ?? '/';
  const user = useSession((state) => state.user);
  const resource = useResource(path);
  usePageTitle(t('titles.files'));

  const heading = baseName(path) || t('files.home');
  const absoluteDates = user?.dateFormat ?? false;

  let body;
  if (resource.isPending) {
    body = (
      <div className="files__loading" role="status">
        <div className="spinner" aria-hidden="true" />
        <span className="visually-hidden">{t('common.loading')}</span>
      </div>
    );
  } else if (resource.isError) {
    const status = isApiError(resource.error) ? resource.error.status : 500;
    body = <ErrorScreen status={status} />;
  } else if (resource.data.isDir) {
    body = <FolderView folder={resource.data} absoluteDates={absoluteDates} />;
  } else {
    body = <FileView file={resource.data} canDownload={user?.perm.download ?? false} absoluteDates={absoluteDates} />;
  }

  return (
    <div className="page files">
      {path !== '/' && (
        <Link className="files__up" to={filesRoute(parentPath(path))}>
          <ArrowUp aria-hidden="true" size={16} />
          {t('files.parentFolder')}
        </Link>
      )}
      <h1 className="page__title files__title">{heading}</h1>
      {body}
    </div>
  );
}
