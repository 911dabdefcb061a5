import type { Resource, ResourceItem } from '@burrow/protocol';
import { useQueryClient } from '../../../lib/query';
import { Download, Info, Pencil, Share2, Trash2 } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from '../../../lib/router';
import { deleteResource, fetchResource, rawUrl } from '../../../api/resources';
import { filesRoute, parentPath } from '../../../lib/paths';
import { openDialog } from '../../../stores/dialog-store';
import { useSession } from '../../../stores/session-store';
import { renameInPlace } from '../file-operations';
import { resourceQueryKey } from '../files-path';
import type { PreviewAction } from './preview-bar';
import { neighboursIn } from './use-neighbours';

type Paging = {
  previous?: ResourceItem;
  next?: ResourceItem;
  /** Back to the folder, selecting the given item there. */
  close: (preselect?: string) => void;
  goTo: (item: ResourceItem | undefined) => void;
  /** Names in the file's folder, to warn about a rename clash early. */
  siblings: readonly string[];
};

/**
 * The preview bar's actions, as the user's permissions allow: info, rename, delete, download
 * and share, each through the app's dialogs. Deleting moves on to the next file (else the
 * previous one, else back to the folder); renaming shows the file under its new path.
 */
export function usePreviewActions(file: Resource, { previous, next, close, goTo, siblings }: Paging): PreviewAction[] {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const perm = useSession((state) => state.user?.perm);

  return useMemo(() => {
    if (!perm) return [];
    const folder = parentPath(file.path);
    const refreshFolder = () => queryClient.invalidateQueries({ queryKey: resourceQueryKey(folder) });
    const actions: PreviewAction[] = [
      {
        id: 'info',
        label: t('preview.info'),
        icon: Info,
        onClick: () => openDialog('info', { items: [file], canDownload: perm.download }),
      },
    ];
    if (perm.rename) {
      actions.push({
        id: 'rename',
        label: t('preview.rename'),
        icon: Pencil,
        onClick: () =>
          openDialog('rename', {
            name: file.name,
            siblings,
            onRename: async (name) => {
              const destination = await renameInPlace(file.path, name);
              if (destination === null) return false;
              queryClient.removeQueries({ queryKey: resourceQueryKey(file.path), exact: true });
              await refreshFolder();
              navigate(filesRoute(destination), { replace: true });
            },
          }),
      });
    }
    if (perm.delete) {
      actions.push({
        id: 'delete',
        label: t('preview.delete'),
        icon: Trash2,
        onClick: () =>
          openDialog('delete', {
            names: [file.name],
            onConfirm: async () => {
              // Where to go afterwards comes from the folder's listing as it is before the delete:
              // the neighbours known when the dialog opened may not have arrived yet.
              let around: { next?: ResourceItem; previous?: ResourceItem } = { next, previous };
              if (!next && !previous) {
                const listing = await queryClient.ensureQueryData({ queryKey: resourceQueryKey(folder), queryFn: ({ signal }) => fetchResource(folder, signal) }).catch(() => undefined);
                around = neighboursIn(listing?.isDir ? listing.items : undefined, file.path);
              }
              await deleteResource(file.path);
              queryClient.removeQueries({ queryKey: resourceQueryKey(file.path), exact: true });
              void queryClient.invalidateQueries({ queryKey: ['usage'] });
              await refreshFolder();
              const target = around.next ?? around.previous;
              if (target) goTo(target);
              else close();
            },
          }),
      });
    }
    if (perm.download) {
      actions.push({ id: 'download', label: t('preview.download'), icon: Download, href: rawUrl(file.path) });
    }
    if (perm.share && perm.download) {
      actions.push({ id: 'share', label: t('preview.share'), icon: Share2, onClick: () => openDialog('share', { item: file }) });
    }
    return actions;
  }, [perm, file, siblings, next, previous, close, goTo, navigate, queryClient, t]);
}
