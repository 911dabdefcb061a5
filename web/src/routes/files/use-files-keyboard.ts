import { useEffect, useRef } from 'react';
import { showError } from '../../lib/notify';
import { requestSearch } from '../../stores/app-events';
import { useClipboard } from '../../stores/clipboard-store';
import { openDialog, useDialogs } from '../../stores/dialog-store';
import { clearSelection, setSelection } from '../../stores/selection-store';
import { copyToClipboard, downloadFolder, pasteInto } from './file-operations';
import { openDelete, openDownload, openRename, type FileActionContext } from './files-actions';

/** Typing in a field keeps its keys: no shortcut fires there. */
function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

function hasTextSelection(): boolean {
  return (window.getSelection()?.toString() ?? '') !== '';
}

/**
 * The files screen's keyboard (spec section 2): Escape clears the selection, Delete and F2 open
 * their dialogs, F1 the help; Ctrl/Cmd with C, X, V, A and S copy, cut, paste, select all and
 * download; Ctrl/Cmd+Shift+F asks for the search. Nothing fires while a dialog is open or a
 * field has the focus. On a file's page only help, download and search apply.
 */
export function useFilesKeyboard(context: FileActionContext | undefined): void {
  const latest = useRef(context);
  latest.current = context;

  useEffect(() => {
    const handleKey = (event: KeyboardEvent) => {
      const current = latest.current;
      if (!current || event.defaultPrevented || useDialogs.getState().stack.length > 0 || isEditable(event.target)) return;
      const { user, selection, isListing } = current;
      const isCommand = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();

      if (event.key === 'F1') {
        event.preventDefault();
        openDialog('help', {});
        return;
      }
      if (isCommand && event.shiftKey && key === 'f') {
        event.preventDefault();
        requestSearch();
        return;
      }
      if (isCommand && !event.shiftKey && !event.altKey && key === 's') {
        event.preventDefault();
        if (!user.perm.download) return;
        if (selection.length > 0) openDownload(current);
        else if (isListing) downloadFolder(current.folder);
        return;
      }
      if (!isListing) return;

      if (event.key === 'Escape') {
        if (selection.length > 0 || current.isMultiple) clearSelection();
        return;
      }
      if (event.key === 'Delete') {
        if (user.perm.delete && selection.length > 0) {
          event.preventDefault();
          openDelete(current);
        }
        return;
      }
      if (event.key === 'F2') {
        event.preventDefault();
        if (user.perm.rename && selection.length === 1) openRename(current);
        return;
      }
      if (!isCommand || event.shiftKey || event.altKey) return;
      switch (key) {
        case 'a':
          event.preventDefault();
          setSelection(new Set(current.ordered.map((item) => item.path)), current.ordered[0]?.path ?? null);
          return;
        case 'c':
        case 'x':
          // Text the user selected on purpose is copied as text, as anywhere else.
          if (hasTextSelection() || selection.length === 0) return;
          if (key === 'x' && !user.perm.rename) return;
          event.preventDefault();
          copyToClipboard(key, selection, current.folder);
          return;
        case 'v': {
          const clipboard = useClipboard.getState();
          if (!clipboard.key) return;
          if (!(clipboard.key === 'x' ? user.perm.rename : user.perm.create)) return;
          event.preventDefault();
          pasteInto(current.folder).catch((error: unknown) => void showError(error));
          return;
        }
      }
    };
    document.addEventListener('keydown', handleKey);
    return () => document.removeEventListener('keydown', handleKey);
  }, []);
}
