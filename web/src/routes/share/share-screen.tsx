import type { ArchiveFormat, Resource, ResourceItem } from '@burrow/protocol';
import { useQueryClient } from '../../lib/query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from '../../lib/router';
import { errorCodeOf } from '../../api/api-error';
import { publicDownloadUrl, publicPreviewUrl, publicSubtitleUrl } from '../../api/public-shares';
import { ErrorScreen } from '../../components/errors/error-screen';
import { copyLink } from '../../components/share/copy-link';
import { currentLocaleTag } from '../../i18n/i18n';
import { baseName } from '../../lib/paths';
import { useAppSettings } from '../../stores/app-settings-store';
import { openDialog } from '../../stores/dialog-store';
import { useSession } from '../../stores/session-store';
import { usePageTitle } from '../use-page-title';
import { ShareActions } from './share-actions';
import { ShareBreadcrumbs } from './share-breadcrumbs';
import { ShareInfo } from './share-info';
import { ShareListing } from './share-listing';
import { shareLocationOf, shareRoute } from './share-location';
import { SharePasswordForm } from './share-password-form';
import { FileRequestPage } from './file-request-page';
import { isPreviewable, SharePreview, type PreviewSources } from './share-preview';
import { pick, useShareSelection } from './share-selection';
import { triggerDownload } from './trigger-download';
import { publicShareQueryKey, usePublicShare } from './use-public-share';
import './share-screen.css';

/** Items drawn at first and added by each press of the "+N" entry (spec section 9). */
const ItemWindow = 100;

function absoluteUrl(url: string): string {
  return new URL(url, window.location.origin).href;
}

type ShareViewProps = { hash: string; path: string; resource: Resource; token?: string };

/** A loaded link: the info box, the preview, the folder's items and the header actions. */
function ShareView({ hash, path, resource, token }: ShareViewProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const settings = useAppSettings((state) => state.settings);
  const user = useSession((state) => state.user);
  const locale = currentLocaleTag();
  const absoluteDates = user?.dateFormat ?? false;
  const items = resource.items ?? [];
  const [limit, setLimit] = useState(ItemWindow);
  const [isMultiple, setMultiple] = useState(false);
  const { selection, update } = useShareSelection(`${hash}${path}`);
  const selectedItems = items.filter((item) => selection.paths.includes(item.path));

  // Escape drops the selection and multiple selection, unless a dialog took the key first.
  useEffect(() => {
    const handleKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      update(() => ({ paths: [] }));
      setMultiple(false);
    };
    document.addEventListener('keydown', handleKey);
    return () => document.removeEventListener('keydown', handleKey);
  }, [update]);

  // A file link answers with an empty path: its download address is the hash alone.
  const itemPath = resource.isDir ? path : resource.path;
  const downloadUrl = publicDownloadUrl(hash, itemPath, { token });
  const name = resource.isDir && path !== '/' ? baseName(path) : resource.name || '/';
  const rootListing = queryClient.getQueryData<Resource>(publicShareQueryKey(hash, '/'));
  const rootName = resource.isDir ? resource.name : rootListing?.name;
  const isInsideFolder = path !== '/' && (resource.isDir || resource.path !== '');

  const chooseArchive = (download: (format: ArchiveFormat) => void) => {
    openDialog('download', { onChoose: download });
  };

  const handleDownloadSelection = () => {
    const [first] = selectedItems;
    if (!first) return;
    if (selectedItems.length === 1 && !first.isDir) {
      triggerDownload(publicDownloadUrl(hash, first.path, { token }));
      return;
    }
    chooseArchive((algo) => {
      const url =
        selectedItems.length === 1
          ? publicDownloadUrl(hash, first.path, { token, algo })
          : publicDownloadUrl(hash, '/', { token, algo, files: selectedItems.map((item) => item.path) });
      triggerDownload(url);
    });
  };

  const singleSelectedFile = selectedItems.length === 1 && !selectedItems[0]!.isDir ? selectedItems[0] : undefined;
  const linkToCopy = singleSelectedFile ? publicDownloadUrl(hash, singleSelectedFile.path, { token }) : !resource.isDir ? downloadUrl : undefined;

  const previewItem: Pick<ResourceItem, 'name' | 'type' | 'path' | 'modified' | 'subtitles' | 'isDir'> | undefined =
    !resource.isDir && isPreviewable(resource) ? { ...resource, path: itemPath } : singleSelectedFile && isPreviewable(singleSelectedFile) ? singleSelectedFile : undefined;
  let previewSources: PreviewSources | undefined;
  if (previewItem) {
    previewSources = {
      src:
        previewItem.type === 'image'
          ? publicPreviewUrl(hash, previewItem.path, 'big', { token, key: previewItem.modified })
          : publicDownloadUrl(hash, previewItem.path, { token, inline: true }),
      subtitles: (previewItem.subtitles ?? []).map((subtitle) => ({ src: publicSubtitleUrl(hash, subtitle, token), label: baseName(subtitle) })),
    };
  }

  const open = (item: ResourceItem) => navigate(shareRoute(hash, item.isDir ? `${item.path}/` : item.path));
  const thumbnailOf = (item: ResourceItem) =>
    settings.EnableThumbs && item.type === 'image' && !item.isDir ? publicPreviewUrl(hash, item.path, 'thumb', { token, key: item.modified }) : undefined;

  return (
    <>
      <ShareActions
        selectedCount={selectedItems.length}
        canCopyLink={linkToCopy !== undefined}
        canSelect={resource.isDir && items.length > 0}
        isMultiple={isMultiple}
        onDownload={handleDownloadSelection}
        onCopyLink={() => linkToCopy && void copyLink(absoluteUrl(linkToCopy), t('share.linkCopied'))}
        onToggleMultiple={() => setMultiple((value) => !value)}
      />
      <h1 className="visually-hidden">{name}</h1>
      {isInsideFolder && <ShareBreadcrumbs hash={hash} path={path} rootName={rootName} />}
      <div className={resource.isDir ? 'share-page__layout' : 'share-page__layout share-page__layout--file'}>
        <div className="share-page__aside">
          <ShareInfo
            name={name}
            isDir={resource.isDir}
            type={resource.type}
            modified={resource.modified}
            size={resource.size}
            itemCount={items.length}
            downloadUrl={downloadUrl}
            absoluteDownloadUrl={absoluteUrl(downloadUrl)}
            openUrl={resource.isDir ? undefined : publicDownloadUrl(hash, itemPath, { token, inline: true })}
            onDownloadFolder={() => chooseArchive((algo) => triggerDownload(publicDownloadUrl(hash, itemPath, { token, algo })))}
            locale={locale}
            absoluteDates={absoluteDates}
          />
          {previewItem && previewSources && <SharePreview item={previewItem} sources={previewSources} />}
        </div>
        {resource.isDir && (
          <section className="share-page__items card" aria-labelledby="share-items-heading">
            <div className="share-page__items-head">
              <h2 id="share-items-heading" className="share-page__items-title">
                {t('share.files')}
              </h2>
              {isMultiple && (
                <p className="share-page__multiple" role="status">
                  {t('share.multipleEnabled')}
                  <button type="button" className="button button--ghost share-page__clear" onClick={() => setMultiple(false)}>
                    {t('share.multipleOff')}
                  </button>
                </p>
              )}
            </div>
            {items.length === 0 ? (
              <p className="share-page__empty">{t('share.empty')}</p>
            ) : (
              <ShareListing
                items={items}
                limit={limit}
                selected={selection.paths}
                isMultiple={isMultiple}
                isSingleClick={user?.singleClick ?? false}
                locale={locale}
                absoluteDates={absoluteDates}
                thumbnailOf={thumbnailOf}
                onPick={(picked, mode) => update((current) => pick(current, items.map((item) => item.path), picked, mode))}
                onOpen={open}
                onShowMore={() => setLimit((value) => value + ItemWindow)}
              />
            )}
          </section>
        )}
      </div>
    </>
  );
}

/** A link the page has not opened yet: loading, the password prompt, or why it cannot open. */
function SharePage({ hash, path }: { hash: string; path: string }) {
  const { t } = useTranslation();
  const { query, token, password } = usePublicShare(hash, path);
  usePageTitle(query.data ? query.data.name || t('titles.share') : t('titles.share'));

  if (query.isSuccess) {
    return <ShareView key={path} hash={hash} path={path} resource={query.data} token={token ?? query.data.token} />;
  }
  if (password.isRequired) return <SharePasswordForm state={password} />;
  if (query.isError) {
    const code = errorCodeOf(query.error);
    // Upload-only links answer 404 to every read: such a link opens as a drop zone instead.
    if (code === 'not_found' && path === '/') return <FileRequestPage hash={hash} />;
    return <ErrorScreen code={code} />;
  }
  return (
    <div className="share-page__loading" role="status">
      <div className="spinner" aria-hidden="true" />
      <span>{t('common.loading')}</span>
    </div>
  );
}

/** The public share page `/share/{hash}{path}`: open to anyone holding the link. */
export function ShareScreen() {
  const location = useLocation();
  const parsed = shareLocationOf(location.pathname);
  return (
    <div className="page share-page">
      {parsed ? <SharePage key={parsed.hash} hash={parsed.hash} path={parsed.path} /> : <ErrorScreen code="not_found" />}
    </div>
  );
}
