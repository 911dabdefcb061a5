import type { Resource } from '@burrow/protocol';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { withTranslations } from '../../i18n/i18n';

// Each is a chunk of its own with its own styles; the editor's chunk fetches ace only when shown.
const EditorView = lazy(() => withTranslations(import('./editor/editor-view'), 'fileView'));
const PreviewView = lazy(() => withTranslations(import('./preview/preview-view'), 'fileView'));

/** Text files open in the editor; everything else that is not a folder opens in the preview. */
export function opensInEditor(file: Pick<Resource, 'type'>): boolean {
  return file.type === 'text' || file.type === 'textImmutable';
}

/** The body of `/files/<path>` for a file: the editor or the preview, each loaded on demand. */
export function FileContentView({ file }: { file: Resource }) {
  const { t } = useTranslation();
  return (
    <Suspense
      fallback={
        <div className="files__loading" role="status">
          <div className="spinner" aria-hidden="true" />
          <span className="visually-hidden">{t('common.loading')}</span>
        </div>
      }
    >
      {/* A new file gets a new editor (its own text and undo history); the preview stays mounted while paging. */}
      {opensInEditor(file) ? <EditorView key={file.path} file={file} /> : <PreviewView file={file} />}
    </Suspense>
  );
}
