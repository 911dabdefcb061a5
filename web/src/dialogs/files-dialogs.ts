import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ReplaceDialogProps, ReplaceRenameDialogProps } from './choice-dialog';
import type { DeleteDialogProps } from './delete-dialog';
import type { DialogControls } from './dialog-registry';
import type { DownloadDialogProps } from './download-dialog';
import type { HelpDialogProps } from './help-dialog';
import type { InfoDialogProps } from './info-dialog';
import type { MessageDialogProps } from './message-dialog';
import type { RenameDialogProps } from './rename-dialog';
import type { TransferDialogProps } from './transfer-dialog';

/** The files screen's dialogs by name, merged into the app's dialog registry. */
export type FilesDialogPropsMap = {
  info: InfoDialogProps;
  help: HelpDialogProps;
  delete: DeleteDialogProps;
  rename: RenameDialogProps;
  move: TransferDialogProps;
  copy: TransferDialogProps;
  download: DownloadDialogProps;
  replace: ReplaceDialogProps;
  'replace-rename': ReplaceRenameDialogProps;
  error: MessageDialogProps;
  success: MessageDialogProps;
};

type Components = { [K in keyof FilesDialogPropsMap]: LazyExoticComponent<ComponentType<FilesDialogPropsMap[K] & DialogControls>> };

export const filesDialogComponents: Components = {
  info: lazy(() => import('./info-dialog')),
  help: lazy(() => import('./help-dialog')),
  delete: lazy(() => import('./delete-dialog')),
  rename: lazy(() => import('./rename-dialog')),
  move: lazy(() => import('./transfer-dialog').then((module) => ({ default: module.MoveDialog }))),
  copy: lazy(() => import('./transfer-dialog').then((module) => ({ default: module.CopyDialog }))),
  download: lazy(() => import('./download-dialog')),
  replace: lazy(() => import('./choice-dialog').then((module) => ({ default: module.ReplaceDialog }))),
  'replace-rename': lazy(() => import('./choice-dialog').then((module) => ({ default: module.ReplaceRenameDialog }))),
  error: lazy(() => import('./message-dialog').then((module) => ({ default: module.ErrorDialog }))),
  success: lazy(() => import('./message-dialog').then((module) => ({ default: module.SuccessDialog }))),
};
