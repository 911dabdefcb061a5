import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { loadAce, type AceEditor } from './ace-loader';
import './code-editor.css';

export type CodeEditorHandle = {
  getValue: () => string;
  /** Marks the current text as saved: the editor is clean until the next edit. */
  markClean: () => void;
  openSearch: () => void;
  focus: () => void;
};

type CodeEditorProps = {
  /** The text the editor starts with (later changes of this prop are ignored). */
  initialText: string;
  /** Picks the syntax mode (`a.ts` → TypeScript). */
  fileName: string;
  /** An ace theme name (`monokai`). */
  themeName: string;
  isReadOnly: boolean;
  /** Soft wrap of long lines (costly for very large texts, so callers decide). */
  isWrapped: boolean;
  /** The accessible name of the text area. */
  label: string;
  onDirtyChange: (isDirty: boolean) => void;
  onTextChange?: () => void;
  onSave: () => void;
  /** Called once the editor shows the text, with how long that took. */
  onReady?: (elapsedMs: number) => void;
  onLoadError: (error: unknown) => void;
};

/**
 * An ace editor with optional soft wrap and ace's search box. ace and the file's syntax mode are fetched
 * on demand; until then the element is an empty frame of the final size, so nothing jumps.
 */
export const CodeEditor = forwardRef<CodeEditorHandle, CodeEditorProps>(function CodeEditor(props, ref) {
  const hostRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<AceEditor | null>(null);
  const [isLoading, setLoading] = useState(true);
  // Callbacks change on every render; the editor is created once and reads the latest ones.
  const latest = useRef(props);
  latest.current = props;

  useImperativeHandle(ref, () => ({
    getValue: () => editorRef.current?.getValue() ?? latest.current.initialText,
    markClean: () => {
      editorRef.current?.session.getUndoManager().markClean();
      latest.current.onDirtyChange(false);
    },
    openSearch: () => editorRef.current?.execCommand('find'),
    focus: () => editorRef.current?.focus(),
  }));

  useEffect(() => {
    let isCancelled = false;
    const started = performance.now();
    void loadAce()
      .then(({ ace, modeNameFor }) => {
        const host = hostRef.current;
        if (isCancelled || !host) return;
        const { initialText, fileName, themeName, isReadOnly, isWrapped, label } = latest.current;
        const editor = ace.edit(host, {
          value: initialText,
          mode: `ace/mode/${modeNameFor(fileName)}`,
          theme: `ace/theme/${themeName}`,
          readOnly: isReadOnly,
          wrap: isWrapped,
          showPrintMargin: false,
          fontSize: 14,
          tabSize: 2,
          useWorker: false,
          enableKeyboardAccessibility: true,
          textInputAriaLabel: label,
          scrollPastEnd: 0.5,
        });
        editor.session.getUndoManager().markClean();
        editor.commands.addCommand({
          name: 'save',
          bindKey: { win: 'Ctrl-S', mac: 'Command-S' },
          readOnly: true,
          exec: () => latest.current.onSave(),
        });
        let wasDirty = false;
        editor.on('input', () => {
          // `input` fires after the undo manager has recorded the change.
          const isDirty = !editor.session.getUndoManager().isClean();
          if (isDirty !== wasDirty) {
            wasDirty = isDirty;
            latest.current.onDirtyChange(isDirty);
          }
          latest.current.onTextChange?.();
        });
        editorRef.current = editor;
        setLoading(false);
        editor.renderer.once('afterRender', () => latest.current.onReady?.(performance.now() - started));
        if (!isReadOnly) editor.focus();
      })
      .catch((error: unknown) => {
        if (!isCancelled) latest.current.onLoadError(error);
      });
    return () => {
      isCancelled = true;
      editorRef.current?.destroy();
      editorRef.current?.container.replaceChildren();
      editorRef.current = null;
    };
  }, []);

  useEffect(() => {
    editorRef.current?.setTheme(`ace/theme/${props.themeName}`);
  }, [props.themeName]);

  useEffect(() => {
    editorRef.current?.setReadOnly(props.isReadOnly);
  }, [props.isReadOnly]);

  useEffect(() => {
    editorRef.current?.session.setUseWrapMode(props.isWrapped);
  }, [props.isWrapped]);

  return (
    <div className="code-editor" aria-busy={isLoading}>
      <div ref={hostRef} className="code-editor__host" />
    </div>
  );
});
