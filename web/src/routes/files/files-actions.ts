import type { PermissionName, Resource, ResourceItem, TokenUser } from '@burrow/protocol';
import type { TFunction } from 'i18next';
import { CheckSquare, Copy, Download, FolderInput, Grid2x2, Images, Info, LayoutList, Pencil, Share2, Trash2, Upload, type LucideIcon } from 'lucide-react';
import type { HeaderAction } from '../../components/header/action-bar';
import type { ViewMode } from '../../components/listing/listing-model';
import { openDialog } from '../../stores/dialog-store';
import { clearSelection, setMultipleSelection } from '../../stores/selection-store';
import { asFolder, deleteFile, deleteItems, downloadItems, renameItem, transferFromDialog } from './file-operations';
import { cycleViewMode } from './view-preferences';

/** What the actions look at: who is acting, where, and on what. */
export type FileActionContext = {
  user: TokenUser;
  /** The folder on screen (or holding the file on screen), with a trailing slash. */
  folder: string;
  /** The folder listing or the file on screen. */
  resource: Resource;
  /** The folder's items in display order (empty for a file). */
  ordered: readonly ResourceItem[];
  /** The items acted on: the selection in a listing, the file itself on a file's page. */
  selection: readonly ResourceItem[];
  isListing: boolean;
  viewMode: ViewMode;
  isMultiple: boolean;
};

/** How many items an action needs. */
type SelectionRule = 'any' | 'exactlyOne' | 'atLeastOne';

/**
 * A top-bar action. The bar shows the actions whose permission, selection rule and `isShown`
 * test pass, in list order. Selection actions move to the bottom bar on narrow screens. Later
 * features (upload, search, shell) add their own descriptors to `fileActions`.
 */
export type FileAction = {
  id: string;
  label: (t: TFunction, context: FileActionContext) => string;
  icon: LucideIcon;
  /** An icon that depends on the state (the switch-view button shows the current view). */
  iconFor?: (context: FileActionContext) => LucideIcon;
  permissions?: PermissionName[];
  selection: SelectionRule;
  isSelectionAction: boolean;
  isShown?: (context: FileActionContext) => boolean;
  run: (context: FileActionContext) => void;
  badge?: (context: FileActionContext) => number | undefined;
  isPressed?: (context: FileActionContext) => boolean;
  tone?: 'danger';
};

const viewIcons: Record<ViewMode, LucideIcon> = { list: LayoutList, mosaic: Grid2x2, 'mosaic gallery': Images };

export function openRename(context: FileActionContext): void {
  const item = context.selection[0];
  if (!item) return;
  openDialog('rename', {
    name: item.name,
    siblings: context.isListing ? context.ordered.map((entry) => entry.name) : undefined,
    onRename: (name) => renameItem(item, name, !context.isListing),
  });
}

export function openDelete(context: FileActionContext): void {
  if (context.selection.length === 0) return;
  const items = [...context.selection];
  openDialog('delete', {
    names: items.map((item) => item.name),
    onConfirm: () => (context.isListing ? deleteItems(items, context.ordered) : deleteFile(items[0]!.path)),
  });
}

function openTransfer(kind: 'move' | 'copy', context: FileActionContext): void {
  const items = [...context.selection];
  openDialog(kind, {
    paths: items.map((item) => item.path),
    source: context.folder,
    canCreate: context.user.perm.create,
    singleClick: context.user.singleClick,
    onConfirm: (destination) => transferFromDialog(kind, items, destination, context.folder, context.user.redirectAfterCopyMove),
  });
}

function openInfo(context: FileActionContext): void {
  const items = context.selection.length > 0 ? [...context.selection] : [context.resource];
  openDialog('info', { items, canDownload: context.user.perm.download });
}

export function openDownload(context: FileActionContext): void {
  downloadItems(context.selection, context.folder);
}

export const fileActions: FileAction[] = [
  {
    id: 'share',
    label: (t) => t('fileActions.share'),
    icon: Share2,
    permissions: ['share', 'download'],
    selection: 'exactlyOne',
    isSelectionAction: true,
    run: (context) => {
      const item = context.selection[0];
      if (item) openDialog('share', { item: { path: item.isDir ? asFolder(item.path) : item.path, name: item.name, isDir: item.isDir } });
    },
  },
  { id: 'rename', label: (t) => t('fileActions.rename'), icon: Pencil, permissions: ['rename'], selection: 'exactlyOne', isSelectionAction: true, run: openRename },
  {
    id: 'copy',
    label: (t) => t('fileActions.copy'),
    icon: Copy,
    permissions: ['create'],
    selection: 'atLeastOne',
    isSelectionAction: true,
    isShown: (context) => context.isListing,
    run: (context) => openTransfer('copy', context),
  },
  {
    id: 'move',
    label: (t) => t('fileActions.move'),
    icon: FolderInput,
    permissions: ['rename'],
    selection: 'atLeastOne',
    isSelectionAction: true,
    isShown: (context) => context.isListing,
    run: (context) => openTransfer('move', context),
  },
  { id: 'delete', label: (t) => t('fileActions.delete'), icon: Trash2, permissions: ['delete'], selection: 'atLeastOne', isSelectionAction: true, run: openDelete, tone: 'danger' },
  {
    id: 'download',
    label: (t) => t('fileActions.download'),
    icon: Download,
    permissions: ['download'],
    selection: 'atLeastOne',
    isSelectionAction: true,
    run: openDownload,
    badge: (context) => (context.isListing ? context.selection.length : undefined),
  },
  {
    id: 'switch-view',
    label: (t) => t('fileActions.switchView'),
    icon: LayoutList,
    iconFor: (context) => viewIcons[context.viewMode],
    selection: 'any',
    isSelectionAction: false,
    isShown: (context) => context.isListing,
    run: () => void cycleViewMode(),
  },
  {
    id: 'upload',
    label: (t) => t('upload.action'),
    icon: Upload,
    permissions: ['create'],
    selection: 'any',
    isSelectionAction: false,
    isShown: (context) => context.isListing,
    run: (context) => void openDialog('upload', { folder: context.folder }),
  },
  { id: 'info', label: (t) => t('fileActions.info'), icon: Info, selection: 'any', isSelectionAction: false, run: openInfo },
  {
    id: 'select-multiple',
    label: (t) => t('fileActions.selectMultiple'),
    icon: CheckSquare,
    selection: 'any',
    isSelectionAction: false,
    isShown: (context) => context.isListing,
    isPressed: (context) => context.isMultiple,
    run: (context) => {
      if (context.isMultiple) clearSelection();
      else setMultipleSelection(true);
    },
  },
];

function isActionAvailable(action: FileAction, context: FileActionContext): boolean {
  if (action.permissions?.some((permission) => !context.user.perm[permission])) return false;
  const count = context.selection.length;
  if (action.selection === 'exactlyOne' && count !== 1) return false;
  if (action.selection === 'atLeastOne' && count < 1) return false;
  return action.isShown?.(context) ?? true;
}

/** The available actions as buttons. */
export function headerActions(actions: readonly FileAction[], context: FileActionContext, t: TFunction): HeaderAction[] {
  return actions
    .filter((action) => isActionAvailable(action, context))
    .map((action, index, shown) => ({
      id: action.id,
      label: action.label(t, context),
      icon: action.iconFor?.(context) ?? action.icon,
      onClick: () => action.run(context),
      badge: action.badge?.(context),
      isPressed: action.isPressed?.(context),
      tone: action.tone,
      startsGroup: index > 0 && shown[index - 1]!.isSelectionAction !== action.isSelectionAction,
    }));
}
