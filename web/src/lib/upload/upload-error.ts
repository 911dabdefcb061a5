/** Texts of spec section 8, as the server-independent parts of upload failures. */
const UploadAbortedMessage = 'Upload aborted';
export const UploadFailedMessage = 'Upload failed';
export const ConnectionAbortedMessage = '001 Connection aborted';

/** A failed or aborted transfer; `isAborted` failures are the user's own doing and stay silent. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status = 0,
    readonly isAborted = false,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

export function abortedError(): UploadError {
  return new UploadError(UploadAbortedMessage, 0, true);
}

export function isAbortedUpload(error: unknown): boolean {
  return error instanceof UploadError && error.isAborted;
}
