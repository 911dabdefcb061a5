import type { Resource } from '@burrow/protocol';
import { useQueryClient } from '../../../lib/query';
import { Eye, EyeOff, Save, Search, WrapText, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../../lib/router';
import { saveFileText } from '../../../api/file-content';
import { rawUrl } from '../../../api/resources';
import { CodeEditor, type CodeEditorHandle } from '../../../components/editor/code-editor';
import { MarkdownPreview } from '../../../components/editor/markdown-preview';
import { TopBarActions } from '../../../components/layout/top-bar-slot';
import { resolveEditorTheme } from '../../../lib/editor-themes';
import { showError, showSuccess } from '../../../lib/notify';
import { filesRoute, joinPath, parentPath } from '../../../lib/paths';
import { preselect } from '../../../stores/selection-store';
import { useSession } from '../../../stores/session-store';
import { resourceQueryKey } from '../files-path';
import { TooLargeCard } from './too-large-card';
import { useAppliedTheme } from './use-applied-theme';
import { useUnsavedChangesGuard } from './use-unsaved-changes-guard';
import './editor-view.css';

const MarkdownPattern = /\.(md|markdown|mdown|mkd|mkdn)$/i;
/**
 * Soft wrap has to measure every line up front (about a second for 5 MB), so larger texts open
 * unwrapped and the user may turn wrapping on.
 */
const WrapByDefaultLimit = 1024 * 1024;
/** Narrow screens show source or preview, not both. */
const NarrowQuery = '(max-width: 736px)';

function isNarrowScreen(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(NarrowQuery).matches;
}

/**
 * The text editor for `text` and `textImmutable` files: ace with the user's theme, save by button
 * or Ctrl/Cmd+S, read-only without the modify permission, a live preview beside Markdown, and a
 * guard against leaving with unsaved changes. Files whose text the server did not send (too
 * large, or no download permission) get a card instead.
 */
export default function EditorView({ file }: { file: Resource }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useSession((state) => state.user);
  const appTheme = useAppliedTheme();
  const editorRef = useRef<CodeEditorHandle>(null);
  const [isDirty, setDirty] = useState(false);
  const [isSaving, setSaving] = useState(false);
  const [revision, setRevision] = useState(0);
  const isMarkdown = MarkdownPattern.test(file.name);
  const [isPreviewShown, setPreviewShown] = useState(() => isMarkdown && !isNarrowScreen());
  const [readyMs, setReadyMs] = useState<number | null>(null);
  const [isWrapped, setWrapped] = useState(() => (file.content?.length ?? 0) <= WrapByDefaultLimit);

  const isReadOnly = file.type !== 'text' || !user?.perm.modify;
  const folder = parentPath(file.path);
  const themeName = resolveEditorTheme(user?.aceEditorTheme ?? '', appTheme).name;

  const save = useCallback(async (): Promise<boolean> => {
    const editor = editorRef.current;
    if (!editor || isReadOnly) return false;
    const text = editor.getValue();
    setSaving(true);
    try {
      await saveFileText(file.path, text);
      // Typing may have gone on while the request was out: only what was sent is clean.
      if (editor.getValue() === text) editor.markClean();
      queryClient.setQueryData<Resource>(resourceQueryKey(file.path), (old) => (old ? { ...old, content: text } : old));
      void queryClient.invalidateQueries({ queryKey: resourceQueryKey(folder) });
      void showSuccess(t('editor.saved'));
      return true;
    } catch (error) {
      void showError(error);
      return false;
    } finally {
      setSaving(false);
    }
  }, [file.path, folder, isReadOnly, queryClient, t]);

  useUnsavedChangesGuard(isDirty, save);

  // Ctrl/Cmd+S also when the focus is outside the editor (a toolbar button, the preview).
  useEffect(() => {
    const handleKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 's') {
        event.preventDefault();
        event.stopPropagation();
        // Handled here before ace sees it, so a save happens once whatever has the focus.
        if (!event.repeat) void save();
      }
    };
    window.addEventListener('keydown', handleKey, true);
    return () => window.removeEventListener('keydown', handleKey, true);
  }, [save]);

  // Relative images in Markdown live beside the file.
  const resolveImage = useCallback(
    (source: string) => {
      const relative = source.split(/[?#]/)[0] ?? '';
      if (!relative || relative.startsWith('/')) return undefined;
      try {
        return rawUrl(joinPath(folder, decodeURI(relative)), { inline: true });
      } catch {
        return undefined;
      }
    },
    [folder],
  );

  if (file.content === undefined) {
    return <TooLargeCard file={file} canDownload={user?.perm.download ?? false} />;
  }

  return (
    <div className="editor-view" data-dirty={isDirty} data-ready-ms={readyMs ?? undefined}>
      <TopBarActions>
        {!isReadOnly && (
          <button type="button" className="button button--primary editor-view__save" onClick={() => void save()} disabled={isSaving} aria-keyshortcuts="Control+S Meta+S">
            <Save aria-hidden="true" size={18} />
            <span>{t('editor.save')}</span>
          </button>
        )}
      </TopBarActions>
      <div className="editor-view__header">
        <Link className="icon-button" to={filesRoute(folder)} onClick={() => preselect(file.path)} title={t('editor.close')} aria-label={t('editor.close')}>
          <X aria-hidden="true" size={20} />
        </Link>
        {isDirty && <span className="editor-view__badge editor-view__badge--dirty">{t('editor.unsaved')}</span>}
        {isReadOnly && <span className="editor-view__badge">{t('editor.readOnly')}</span>}
        <div className="editor-view__tools">
          <button type="button" className="icon-button" title={t('editor.find')} aria-label={t('editor.find')} onClick={() => editorRef.current?.openSearch()}>
            <Search aria-hidden="true" size={20} />
          </button>
          <button
            type="button"
            className="icon-button"
            title={t('editor.wrap')}
            aria-label={t('editor.wrap')}
            aria-pressed={isWrapped}
            onClick={() => setWrapped((wrapped) => !wrapped)}
          >
            <WrapText aria-hidden="true" size={20} />
          </button>
          {isMarkdown && (
            <button
              type="button"
              className="icon-button"
              title={t('editor.togglePreview')}
              aria-label={t('editor.togglePreview')}
              aria-pressed={isPreviewShown}
              onClick={() => setPreviewShown((shown) => !shown)}
            >
              {isPreviewShown ? <EyeOff aria-hidden="true" size={20} /> : <Eye aria-hidden="true" size={20} />}
            </button>
          )}
        </div>
      </div>
      <div className={isMarkdown && isPreviewShown ? 'editor-view__panes editor-view__panes--split' : 'editor-view__panes'}>
        <CodeEditor
          ref={editorRef}
          initialText={file.content}
          fileName={file.name}
          themeName={themeName}
          isReadOnly={isReadOnly}
          isWrapped={isWrapped}
          label={t('editor.label', { name: file.name })}
          onDirtyChange={setDirty}
          onTextChange={isMarkdown ? () => setRevision((value) => value + 1) : undefined}
          onSave={() => void save()}
          onReady={(elapsed) => setReadyMs(Math.round(elapsed))}
          onLoadError={(error) => void showError(error)}
        />
        {isMarkdown && isPreviewShown && (
          <MarkdownPreview
            readText={() => editorRef.current?.getValue() ?? file.content ?? ''}
            revision={revision}
            resolveImage={resolveImage}
            label={t('editor.preview')}
            loadingLabel={t('common.loading')}
          />
        )}
      </div>
    </div>
  );
}
