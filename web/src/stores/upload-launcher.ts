import { create } from 'zustand';
import type { UploadEntry } from '../lib/upload/upload-entries';

/**
 * Whether the upload machinery (transfers, queue, progress store) has been fetched. It is loaded
 * by the first upload, not at start-up; the layout mounts the upload panel from then on.
 */
export const useUploadLauncher = create<{ isLoaded: boolean }>(() => ({ isLoaded: false }));

/** Uploads entries into `folder` (a decoded virtual path), fetching the upload machinery on first use. */
export async function startUpload(entries: readonly UploadEntry[], folder: string): Promise<void> {
  const { uploadEntries } = await import('./uploads');
  useUploadLauncher.setState({ isLoaded: true });
  await uploadEntries(entries, folder);
}
