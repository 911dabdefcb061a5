import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { withTranslations } from '../i18n/i18n';
import type { DiscardChangesDialogProps } from './discard-changes-dialog';
import { filesDialogComponents, type FilesDialogPropsMap } from './files-dialogs';
import type { DeleteUserDialogProps } from './delete-user-dialog';
import type { ShareDeleteDialogProps } from './share-delete-dialog';
import type { AbortUploadsDialogProps, UploadDialogProps } from './upload-dialog';
import type { ShareDialogProps } from './share-dialog';
import type { ConfirmDialogProps } from './confirm-dialog';
import type { ApiTokenDialogProps } from './api-token-dialog';

/** What every dialog receives besides its own props. */
export type DialogControls = {
  dialogId: number;
  /** Closes this dialog (focus returns to what opened it). */
  onClose: () => void;
};

export type NewResourceDialogProps = {
  /** Decoded virtual path of the folder to create in, with a trailing slash. */
  folder: string;
  /** Receives the new item's path instead of opening it. */
  onCreated?: (path: string) => void;
};

/**
 * Every dialog by name with its props. Add a dialog here and in `dialogComponents`; then
 * `openDialog('name', props)` is type-checked.
 */
type DialogPropsMap = {
  'new-folder': NewResourceDialogProps;
  'new-file': NewResourceDialogProps;
  'discard-changes': DiscardChangesDialogProps;
  'delete-user': DeleteUserDialogProps;
  share: ShareDialogProps;
  'share-delete': ShareDeleteDialogProps;
  upload: UploadDialogProps;
  'upload-abort': AbortUploadsDialogProps;
  confirm: ConfirmDialogProps;
  'api-token': ApiTokenDialogProps;
} & FilesDialogPropsMap;

export type DialogName = keyof DialogPropsMap;
export type DialogPropsOf<K extends DialogName> = DialogPropsMap[K];

type DialogComponents = { [K in DialogName]: LazyExoticComponent<ComponentType<DialogPropsOf<K> & DialogControls>> };

/** Each dialog is its own chunk, fetched the first time it opens with the texts it needs. */
export const dialogComponents: DialogComponents = {
  'new-folder': lazy(() => import('./new-folder-dialog')),
  'new-file': lazy(() => import('./new-file-dialog')),
  'discard-changes': lazy(() => withTranslations(import('./discard-changes-dialog'), 'fileView')),
  'delete-user': lazy(() => withTranslations(import('./delete-user-dialog'), 'settings')),
  share: lazy(() => withTranslations(import('./share-dialog'), 'share')),
  'share-delete': lazy(() => withTranslations(import('./share-delete-dialog'), 'share')),
  upload: lazy(() => import('./upload-dialog')),
  'upload-abort': lazy(() => import('./upload-dialog').then((module) => ({ default: module.AbortUploadsDialog }))),
  confirm: lazy(() => import('./confirm-dialog')),
  'api-token': lazy(() => withTranslations(import('./api-token-dialog'), 'settings')),
  ...filesDialogComponents,
};
