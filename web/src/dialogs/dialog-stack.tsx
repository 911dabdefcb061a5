import { Suspense, useEffect, useLayoutEffect, useRef, type ComponentType } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useDialogs, type DialogEntry } from '../stores/dialog-store';
import { dialogComponents } from './dialog-registry';
import type { DialogControls } from './dialog-types';
import { useFocusTrap } from './use-focus-trap';
import './dialog.css';

function DialogLayer({ entry, isTop, onClose }: { entry: DialogEntry; isTop: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const layerRef = useRef<HTMLDivElement>(null);
  useFocusTrap(layerRef, isTop);
  // Set on the element: React 18 knows no `inert` prop and would drop it.
  useLayoutEffect(() => {
    if (layerRef.current) layerRef.current.inert = !isTop;
  }, [isTop]);
  const Component = dialogComponents[entry.name] as ComponentType<typeof entry.props & DialogControls>;
  return (
    <div
      ref={layerRef}
      className="dialog-layer"
      tabIndex={-1}
      onMouseDown={(event) => {
        // A press on the backdrop itself (not inside the dialog) dismisses it.
        if (event.target === event.currentTarget && isTop) onClose();
      }}
    >
      <Suspense fallback={<div className="spinner" role="status" aria-label={t('common.loading')} />}>
        <Component {...entry.props} dialogId={entry.id} onClose={onClose} />
      </Suspense>
    </div>
  );
}

/**
 * The open dialogs: the last one is current and traps focus; Escape closes it; the page behind
 * is inert while any dialog is open. Shown by the dialog host while the stack is not empty.
 */
export default function DialogStack() {
  const stack = useDialogs((state) => state.stack);
  const closeDialog = useDialogs((state) => state.closeDialog);
  const top = stack[stack.length - 1];

  // A layout effect: the page must be interactive again before a closing dialog hands focus back.
  useLayoutEffect(() => {
    const shell = document.getElementById('app-shell');
    if (!shell) return;
    shell.inert = stack.length > 0;
    return () => {
      shell.inert = false;
    };
  }, [stack.length]);

  useEffect(() => {
    if (!top) return;
    const handleKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      event.stopPropagation();
      closeDialog(top.id);
    };
    document.addEventListener('keydown', handleKey, true);
    return () => document.removeEventListener('keydown', handleKey, true);
  }, [top, closeDialog]);

  if (stack.length === 0) return null;
  return createPortal(
    <div className="dialog-stack">
      {stack.map((entry, index) => (
        <DialogLayer key={entry.id} entry={entry} isTop={index === stack.length - 1} onClose={() => closeDialog(entry.id)} />
      ))}
    </div>,
    document.body,
  );
}
