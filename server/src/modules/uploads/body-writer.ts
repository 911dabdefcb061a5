import type { Readable } from 'node:stream';
import type { StagingWriter } from '../../storage/staging-writer.js';

/**
 * Pipes `source` into `writer`, honouring backpressure. Resolves `complete` when the whole body
 * arrived and was synced, `aborted` when the sender went away first (what did arrive is written
 * and synced, so the upload can resume from there). Rejects with the writer's error; the source
 * is then left unpiped but intact so the caller can still drain it and answer.
 */
export function receiveBody(source: Readable, writer: StagingWriter): Promise<'complete' | 'aborted'> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let aborted = false;

    const cleanup = () => {
      source.off('aborted', onSourceGone);
      source.off('error', onSourceGone);
      source.off('close', onSourceGone);
      writer.off('error', onWriterError);
      writer.off('finish', onFinish);
    };
    const onFinish = () => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve(aborted ? 'aborted' : 'complete');
    };
    const onWriterError = (error: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      source.unpipe(writer);
      reject(error);
    };
    const onSourceGone = () => {
      if (source.readableEnded || aborted) return;
      aborted = true;
      source.unpipe(writer);
      // Flush and sync what was handed over before the connection dropped.
      writer.end();
    };

    writer.on('finish', onFinish);
    writer.on('error', onWriterError);
    source.on('aborted', onSourceGone);
    source.on('error', onSourceGone);
    source.on('close', onSourceGone);

    if (source.destroyed && !source.readableEnded) {
      onSourceGone();
      return;
    }
    source.pipe(writer);
  });
}

/**
 * Reads and discards what is left of a request body, at most `cap` bytes, so a rejected request
 * does not cost the client its keep-alive connection. Resolves false when the body was longer
 * than the cap or the connection failed: the caller should then close the connection.
 */
export function drainBody(source: Readable, cap: number): Promise<boolean> {
  if (source.readableEnded) return Promise.resolve(true);
  if (source.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (complete: boolean) => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onFail);
      source.off('close', onFail);
      if (!complete) source.pause();
      resolve(complete);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > cap) finish(false);
    };
    const onEnd = () => finish(true);
    const onFail = () => finish(source.readableEnded);
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onFail);
    source.once('close', onFail);
    source.resume();
  });
}
