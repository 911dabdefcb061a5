import { abortedError } from './upload-error';

const MaxConcurrentUploads = 5;

/** One file to send. */
export type UploadJob = {
  id: number;
  /** Decoded virtual path of the file to create. */
  path: string;
  file: Blob;
  size: number;
  override: boolean;
};

/** A transfer under way: settles when done; `abort` stops it and discards what was sent. */
export type TransferHandle = {
  done: Promise<void>;
  abort: () => Promise<void>;
};

type StartTransfer = (job: UploadJob, onProgress: (sentBytes: number) => void) => TransferHandle;

export type UploadQueueOptions = {
  start: StartTransfer;
  concurrency?: number;
  onProgress?: (job: UploadJob, sentBytes: number) => void;
  onStart?: (job: UploadJob) => void;
  /** Once per job: without an error when it succeeded. Aborted jobs report an aborted UploadError. */
  onSettled?: (job: UploadJob, error?: unknown) => void;
  /** Nothing runs and nothing waits any more. */
  onIdle?: () => void;
};

/**
 * Runs uploads first in, first out, at most `concurrency` at a time. A failed job does not stop
 * the others; `abortAll` drops what waits and stops what runs.
 */
export class UploadQueue {
  private readonly pending: UploadJob[] = [];
  private readonly running = new Map<number, TransferHandle>();
  private readonly concurrency: number;

  constructor(private readonly options: UploadQueueOptions) {
    this.concurrency = Math.max(1, options.concurrency ?? MaxConcurrentUploads);
  }

  get activeCount(): number {
    return this.running.size;
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  get isIdle(): boolean {
    return this.running.size === 0 && this.pending.length === 0;
  }

  add(jobs: readonly UploadJob[]): void {
    this.pending.push(...jobs);
    this.pump();
  }

  /** Drops every waiting job and aborts every running one; resolves once the aborts are sent. */
  async abortAll(): Promise<void> {
    const dropped = this.pending.splice(0);
    for (const job of dropped) this.options.onSettled?.(job, abortedError());
    const running = [...this.running.values()];
    await Promise.allSettled(running.map((handle) => handle.abort()));
  }

  private pump(): void {
    while (this.running.size < this.concurrency && this.pending.length > 0) {
      const job = this.pending.shift()!;
      this.run(job);
    }
    if (this.isIdle) this.options.onIdle?.();
  }

  private run(job: UploadJob): void {
    this.options.onStart?.(job);
    let handle: TransferHandle;
    try {
      handle = this.options.start(job, (sent) => this.options.onProgress?.(job, sent));
    } catch (error) {
      this.options.onSettled?.(job, error);
      return;
    }
    this.running.set(job.id, handle);
    handle.done.then(
      () => this.finish(job),
      (error: unknown) => this.finish(job, error),
    );
  }

  private finish(job: UploadJob, error?: unknown): void {
    if (!this.running.delete(job.id)) return;
    this.options.onSettled?.(job, error);
    this.pump();
  }
}
