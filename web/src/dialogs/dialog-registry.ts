import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { withTranslations } from '../i18n/i18n';
import type { DialogControls, DialogName, DialogPropsOf } from './dialog-types';
import { filesDialogComponents } from './files-dialogs';

type DialogComponents = { [K in DialogName]: LazyExoticComponent<ComponentType<DialogPropsOf<K> & DialogControls>> };

/**
 * Each dialog is its own chunk, fetched the first time it opens with the texts it needs. The
 * names and props are declared in dialog-types.ts.
 */
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
