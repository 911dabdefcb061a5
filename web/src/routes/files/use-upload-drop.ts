import { useEffect } from 'react';
import { entriesFromDataTransfer, isExternalFileDrag } from '../../lib/upload/upload-entries';
import { startUpload } from '../../stores/upload-launcher';
import { asFolder } from './file-operations';

const DropClass = 'is-drop-target';
const ZoneSelector = '#main-content';

/** The folder item under the pointer, if the drop lands on one. */
function folderItemOf(target: EventTarget | null): HTMLElement | null {
  return target instanceof Element ? target.closest<HTMLElement>('[data-path][data-dir="true"]') : null;
}

function inZone(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest(ZoneSelector) !== null;
}

/**
 * Files and folders dragged in from the desktop: dropped on a folder item they go into that
 * folder, anywhere else on the screen into `folder`. In-app item drags are left to the listing.
 */
export function useUploadDrop(folder: string, isEnabled: boolean): void {
  useEffect(() => {
    if (!isEnabled) return;
    let marked: HTMLElement | null = null;
    const mark = (element: HTMLElement | null) => {
      if (marked === element) return;
      marked?.classList.remove(DropClass);
      marked = element;
      marked?.classList.add(DropClass);
    };
    const handleOver = (event: DragEvent) => {
      if (!isExternalFileDrag(event.dataTransfer) || !inZone(event.target)) return;
      event.preventDefault();
      event.dataTransfer!.dropEffect = 'copy';
      mark(folderItemOf(event.target));
    };
    const handleLeave = (event: DragEvent) => {
      if (event.relatedTarget === null) mark(null);
    };
    const handleDrop = (event: DragEvent) => {
      if (!isExternalFileDrag(event.dataTransfer) || !inZone(event.target)) return;
      event.preventDefault();
      mark(null);
      const item = folderItemOf(event.target);
      const destination = item?.dataset.path ? asFolder(item.dataset.path) : folder;
      // The entries are taken now: the browser empties the drop's data once the event is over.
      void entriesFromDataTransfer(event.dataTransfer!).then((entries) => startUpload(entries, destination));
    };
    document.addEventListener('dragover', handleOver);
    document.addEventListener('dragleave', handleLeave);
    document.addEventListener('drop', handleDrop);
    return () => {
      mark(null);
      document.removeEventListener('dragover', handleOver);
      document.removeEventListener('dragleave', handleLeave);
      document.removeEventListener('drop', handleDrop);
    };
  }, [folder, isEnabled]);
}
