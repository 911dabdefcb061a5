import { useEffect } from 'react';
import { hasPendingUploads, useUploads } from '../../stores/uploads';
import { UploadPanel, UploadTopBar } from './upload-panel';
import './upload-panel.css';

/** The upload panel, the top progress bar and the leave-page warning while uploads are pending. */
export function UploadHost() {
  const isBusy = useUploads((state) => state.isBusy);
  useEffect(() => {
    if (!isBusy) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (!hasPendingUploads()) return;
      event.preventDefault();
      // Older browsers only show the prompt when a value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [isBusy]);
  return (
    <>
      <UploadTopBar />
      <UploadPanel />
    </>
  );
}
