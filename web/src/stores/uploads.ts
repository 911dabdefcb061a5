import { create } from 'zustand';
import { ApiPaths } from '@burrow/protocol/paths';
import { apiUrl } from '../api/http-client';
import { createResource } from '../api/resources';
import type { ReplaceChoice } from '../dialogs/dialog-types';
import { showError } from '../lib/notify';
import { encodePath } from '../lib/paths';
import { findConflicts } from '../lib/upload/upload-conflicts';
import { planUpload, type UploadEntry } from '../lib/upload/upload-entries';
import { isAbortedUpload } from '../lib/upload/upload-error';
import { startPlainTransfer } from '../lib/upload/plain-transport';
import { SpeedMeter, remainingSeconds } from '../lib/upload/speed';
import { startTusTransfer } from '../lib/upload/tus-transport';
import { UploadQueue, type UploadJob } from '../lib/upload/upload-queue';
import { reloadListings } from '../routes/files/file-operations';
import { appSettings } from './app-settings-store';
import { openDialog } from './dialog-store';
import { preselect } from './selection-store';
import { useSession } from './session-store';

type UploadFileStatus = 'pending' | 'active' | 'done' | 'failed';

type UploadFileState = { id: number; path: string; name: string; size: number; sent: number; status: UploadFileStatus };

type UploadsState = {
  files: UploadFileState[];
  totalBytes: number;
  sentBytes: number;
  /** Bytes per second, smoothed. */
  speed: number;
  /** Seconds left, or null while unknown. */
  eta: number | null;
  isCollapsed: boolean;
  /** Uploads are queued or running. */
  isBusy: boolean;
  /** The last batch finished; the panel shows its success mark until the next batch. */
  isFinished: boolean;
};

export const useUploads = create<UploadsState>(() => ({
  files: [],
  totalBytes: 0,
  sentBytes: 0,
  speed: 0,
  eta: null,
  isCollapsed: false,
  isBusy: false,
  isFinished: false,
}));

const ProgressRefreshMs = 1000;
const FinishedShownMs = 3000;

// What changes many times a second lives here and reaches the store once a second.
const live = new Map<number, UploadFileState>();
const meter = new SpeedMeter();
let nextId = 1;
let refreshTimer: ReturnType<typeof setInterval> | null = null;
let hideTimer: ReturnType<typeof setTimeout> | null = null;
let firstUploaded: string | null = null;
let batchesPreparing = 0;
let wasAborted = false;

function totals() {
  let total = 0;
  let sent = 0;
  for (const file of live.values()) {
    total += file.size;
    sent += file.status === 'done' ? file.size : file.sent;
  }
  return { total, sent };
}

function publish(): void {
  const { total, sent } = totals();
  meter.sample(sent, performance.now());
  useUploads.setState({
    files: [...live.values()].map((file) => ({ ...file })),
    totalBytes: total,
    sentBytes: sent,
    speed: meter.speed,
    eta: remainingSeconds(total - sent, meter.speed),
  });
}

function startRefreshing(): void {
  if (hideTimer) clearTimeout(hideTimer);
  hideTimer = null;
  useUploads.setState({ isBusy: true, isFinished: false });
  if (refreshTimer) return;
  meter.reset();
  refreshTimer = setInterval(publish, ProgressRefreshMs);
}

function getToken(): string | null {
  return useSession.getState().token;
}

function absoluteUrl(path: string): string {
  return new URL(apiUrl(path), window.location.origin).href;
}

function startTransfer(job: UploadJob, onProgress: (sent: number) => void) {
  const query = `?override=${job.override ? 'true' : 'false'}`;
  const tus = appSettings().TusSettings;
  if (tus && job.file instanceof Blob) {
    return startTusTransfer(job, tus, absoluteUrl(ApiPaths.tus + encodePath(job.path) + query), getToken, onProgress);
  }
  return startPlainTransfer(job, apiUrl(ApiPaths.resources + encodePath(job.path) + query), getToken(), onProgress);
}

const queue = new UploadQueue({
  start: startTransfer,
  onStart: (job) => {
    const file = live.get(job.id);
    if (file) file.status = 'active';
  },
  onProgress: (job, sent) => {
    const file = live.get(job.id);
    if (file) file.sent = Math.min(sent, file.size);
    // Sampling is cheap and keeps the speed meter's 100 ms grain; the store still updates once a second.
    const { sent: all } = totals();
    meter.sample(all, performance.now());
  },
  onSettled: (job, error) => {
    const file = live.get(job.id);
    if (file) {
      file.status = error === undefined ? 'done' : 'failed';
      if (error === undefined) file.sent = file.size;
    }
    if (error !== undefined && !isAbortedUpload(error)) void showError(error);
  },
  onIdle: () => void finishBatch(),
});

async function finishBatch(): Promise<void> {
  if (!queue.isIdle || batchesPreparing > 0 || !useUploads.getState().isBusy) return;
  if (refreshTimer) clearInterval(refreshTimer);
  refreshTimer = null;
  publish();
  const target = firstUploaded;
  firstUploaded = null;
  // An aborted batch shows no success mark: the panel simply goes.
  const aborted = wasAborted;
  wasAborted = false;
  useUploads.setState({ isBusy: false, isFinished: !aborted, speed: 0, eta: null });
  if (aborted) {
    live.clear();
    useUploads.setState({ files: [], totalBytes: 0, sentBytes: 0 });
  }
  await reloadListings();
  if (aborted) return;
  if (target) preselect(target);
  hideTimer = setTimeout(() => {
    live.clear();
    useUploads.setState({ files: [], totalBytes: 0, sentBytes: 0, isFinished: false });
  }, FinishedShownMs);
}

function askReplace(): Promise<ReplaceChoice> {
  return new Promise((resolve) => openDialog('replace', { onChoice: resolve }));
}

/**
 * Uploads entries into `folder` (a decoded virtual path): asks about existing files first, then
 * creates the folders, then queues the files.
 */
export async function uploadEntries(entries: readonly UploadEntry[], folder: string): Promise<void> {
  const plan = planUpload(entries, folder);
  if (plan.files.length === 0 && plan.folders.length === 0) return;
  let override = false;
  let skipped = new Set<string>();
  try {
    const conflicts = await findConflicts(plan, folder);
    if (conflicts.size > 0) {
      const choice = await askReplace();
      if (choice === 'cancel') return;
      if (choice === 'replace') override = true;
      else skipped = conflicts;
    }
  } catch (error) {
    void showError(error);
    return;
  }

  const files = plan.files.filter((entry) => !skipped.has(entry.path));
  if (live.size > 0 && !useUploads.getState().isBusy) live.clear();
  batchesPreparing += 1;
  startRefreshing();
  firstUploaded ??= plan.topLevel.find((path) => !skipped.has(path)) ?? null;
  const jobs: UploadJob[] = files.map((entry) => ({ id: nextId++, path: entry.path, file: entry.file, size: entry.size, override }));
  for (const job of jobs) live.set(job.id, { id: job.id, path: job.path, name: job.path.slice(job.path.lastIndexOf('/') + 1), size: job.size, sent: 0, status: 'pending' });
  publish();
  try {
    // Folders first, parents before children, so every file has somewhere to go.
    for (const path of plan.folders) await createResource(path);
    queue.add(jobs);
  } catch (error) {
    for (const job of jobs) live.get(job.id)!.status = 'failed';
    void showError(error);
  } finally {
    batchesPreparing -= 1;
  }
  void finishBatch();
}

/** Stops every running upload (their partial files are removed) and drops the waiting ones. */
export async function abortUploads(): Promise<void> {
  wasAborted = true;
  await queue.abortAll();
  publish();
  void finishBatch();
}

export function hasPendingUploads(): boolean {
  return !queue.isIdle || batchesPreparing > 0;
}

export function toggleUploadPanel(): void {
  useUploads.setState((state) => ({ isCollapsed: !state.isCollapsed }));
}
