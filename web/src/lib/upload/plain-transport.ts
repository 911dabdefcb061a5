import type { TransferHandle, UploadJob } from './upload-queue';
import { ConnectionAbortedMessage, UploadError, abortedError } from './upload-error';

/**
 * Sends a file (or creates nothing else) with one `POST /api/resources/<path>` whose body is the
 * file. XHR rather than fetch, because only XHR reports upload progress.
 */
export function startPlainTransfer(job: UploadJob, url: string, token: string | null, onProgress: (sent: number) => void): TransferHandle {
  const xhr = new XMLHttpRequest();
  let isAborted = false;
  const done = new Promise<void>((resolve, reject) => {
    xhr.open('POST', url, true);
    if (token) xhr.setRequestHeader('X-Auth', token);
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(job.size);
        resolve();
        return;
      }
      const text = (xhr.responseText ?? '').trim();
      reject(new UploadError(text || `${xhr.status} ${xhr.statusText}`.trim(), xhr.status));
    };
    xhr.onerror = () => reject(isAborted ? abortedError() : new UploadError(ConnectionAbortedMessage));
    xhr.onabort = () => reject(abortedError());
    xhr.send(job.file);
  });
  return {
    done,
    abort: async () => {
      isAborted = true;
      xhr.abort();
    },
  };
}
