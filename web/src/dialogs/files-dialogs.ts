import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { withTranslations } from '../i18n/i18n';
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

// Their texts are a translation section of their own, fetched with the first of them.
const withFileDialogTexts = <T>(module: Promise<T>) => withTranslations(module, 'fileDialogs');

export const filesDialogComponents: Components = {
  info: lazy(() => withFileDialogTexts(import('./info-dialog'))),
  help: lazy(() => withFileDialogTexts(import('./help-dialog'))),
  delete: lazy(() => withFileDialogTexts(import('./delete-dialog'))),
  rename: lazy(() => withFileDialogTexts(import('./rename-dialog'))),
  move: lazy(() => withFileDialogTexts(import('./transfer-dialog')).then((module) => ({ default: module.MoveDialog }))),
  copy: lazy(() => withFileDialogTexts(import('./transfer-dialog')).then((module) => ({ default: module.CopyDialog }))),
  download: lazy(() => withFileDialogTexts(import('./download-dialog'))),
  replace: lazy(() => withFileDialogTexts(import('./choice-dialog')).then((module) => ({ default: module.ReplaceDialog }))),
  'replace-rename': lazy(() => withFileDialogTexts(import('./choice-dialog')).then((module) => ({ default: module.ReplaceRenameDialog }))),
  error: lazy(() => withFileDialogTexts(import('./message-dialog')).then((module) => ({ default: module.ErrorDialog }))),
  success: lazy(() => withFileDialogTexts(import('./message-dialog')).then((module) => ({ default: module.SuccessDialog }))),
};
