import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { withTranslations } from '../i18n/i18n';
import type { DialogControls, FilesDialogPropsMap } from './dialog-types';

type Components = { [K in keyof FilesDialogPropsMap]: LazyExoticComponent<ComponentType<FilesDialogPropsMap[K] & DialogControls>> };

// Their texts are a translation section of their own, fetched with the first of them.
const withFileDialogTexts = <T>(module: Promise<T>) => withTranslations(module, 'fileDialogs');

/** The files screen's dialogs by name, merged into the app's dialog registry. */
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
