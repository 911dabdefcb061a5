import type { DetailedError, UploadOptions } from 'tus-js-client';
import { codeOfStatus, isServerFault } from '../../api/api-error';
import type { TransferHandle, UploadJob } from './upload-queue';
import { UploadError, UploadFailedMessage, abortedError } from './upload-error';

export type TusTransferSettings = { chunkSize: number; retryCount: number };

const FirstRetryDelayMs = 1000;
const MaxRetryDelayMs = 20_000;
const FallbackChunkSize = 1024 * 1024;

/** One delay per retry: at once, then 1 s doubling, never more than 20 s. */
export function tusRetryDelays(retryCount: number): number[] {
  const count = Math.max(0, Math.floor(retryCount));
  const delays: number[] = [];
  for (let attempt = 0; attempt < count; attempt += 1) {
    delays.push(attempt === 0 ? 0 : Math.min(MaxRetryDelayMs, FirstRetryDelayMs * 2 ** (attempt - 1)));
  }
  return delays;
}

/**
 * A conflict (the target exists, or another writer moved the offset) is final. Other client
 * errors are final too, except a locked upload (423), which clears when the other writer ends.
 * Server errors and lost connections (no status) are retried.
 */
export function shouldRetryTus(status: number | undefined): boolean {
  // No answer at all, or one that is no failure.
  if (status === undefined || status < 400) return true;
  const code = codeOfStatus(status);
  if (code === 'conflict') return false;
  if (code === 'locked') return true;
  return isServerFault(code);
}

export type TusEndpointOptions = {
  /** Absolute URL of `/api/tus/<encoded path>?override=<bool>`. */
  endpoint: string;
  getToken: () => string | null;
  onProgress: (sentBytes: number) => void;
  onSuccess: () => void;
  onError: (error: Error) => void;
  /** Headers sent with every request (a file request's password). */
  headers?: Record<string, string>;
  /** tus `Upload-Metadata` (a file request takes the file name from it). */
  metadata?: Record<string, string>;
};

/** The tus-js-client options for one upload. */
export function tusOptions(settings: TusTransferSettings, options: TusEndpointOptions): UploadOptions {
  return {
    endpoint: options.endpoint,
    chunkSize: settings.chunkSize > 0 ? settings.chunkSize : FallbackChunkSize,
    retryDelays: tusRetryDelays(settings.retryCount),
    parallelUploads: 1,
    storeFingerprintForResuming: false,
    removeFingerprintOnSuccess: true,
    // The token may be renewed during a long upload, so each request reads it afresh.
    onBeforeRequest: (request) => {
      const token = options.getToken();
      if (token) request.setHeader('X-Auth', token);
      for (const [name, value] of Object.entries(options.headers ?? {})) request.setHeader(name, value);
    },
    ...(options.metadata ? { metadata: options.metadata } : {}),
    onShouldRetry: (error) => shouldRetryTus(error.originalResponse?.getStatus()),
    onProgress: (sent) => options.onProgress(sent),
    onSuccess: () => options.onSuccess(),
    onError: (error) => options.onError(error),
  };
}

/** The failure text: the server's answer when there is one, otherwise "Upload failed". */
function tusErrorOf(error: Error): UploadError {
  const response = (error as Partial<DetailedError>).originalResponse;
  if (!response) return new UploadError(UploadFailedMessage);
  const body = response.getBody()?.trim();
  return new UploadError(body || UploadFailedMessage, response.getStatus());
}

/** What differs for uploads through a file request: extra headers and metadata, and no DELETE on abort. */
export type TusTransferExtras = Pick<TusEndpointOptions, 'headers' | 'metadata'> & { terminateOnAbort?: boolean };

/** Sends a file with tus; the client library is its own chunk, loaded on the first upload. */
export function startTusTransfer(
  job: UploadJob,
  settings: TusTransferSettings,
  endpoint: string,
  getToken: () => string | null,
  onProgress: (sent: number) => void,
  extras: TusTransferExtras = {},
): TransferHandle {
  let upload: import('tus-js-client').Upload | null = null;
  let isAborted = false;
  let rejectDone: (error: unknown) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    rejectDone = reject;
    import('tus-js-client').then(({ Upload }) => {
      if (isAborted) return;
      upload = new Upload(
        job.file,
        tusOptions(settings, {
          endpoint,
          getToken,
          onProgress,
          onSuccess: resolve,
          onError: (error) => reject(isAborted ? abortedError() : tusErrorOf(error)),
          headers: extras.headers,
          metadata: extras.metadata,
        }),
      );
      upload.start();
    }, reject);
  });
  return {
    done,
    abort: async () => {
      if (isAborted) return;
      isAborted = true;
      rejectDone(abortedError());
      // Terminating sends DELETE, so no partial file is left behind.
      if (upload) await upload.abort(extras.terminateOnAbort ?? true).catch(() => undefined);
    },
  };
}
