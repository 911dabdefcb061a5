/** A file or folder picked or dropped, with its path relative to the upload's destination. */
export type UploadEntry = {
  name: string;
  isDir: boolean;
  size: number;
  /** Relative path without a leading slash: `photos/2024/a.jpg`. */
  fullPath: string;
  file?: File;
};

type PlannedFile = { path: string; file: File; size: number };

/** What an upload does: folders to create (parents first), then files to send. */
export type UploadPlan = {
  folders: string[];
  files: PlannedFile[];
  /** Paths of what lands directly in the destination, in the order given (files and folders). */
  topLevel: string[];
  isNested: boolean;
};

function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

/** Entries of an `<input type=file>` (with `webkitdirectory`, files carry `webkitRelativePath`). */
export function entriesFromFiles(files: Iterable<File>): UploadEntry[] {
  const entries: UploadEntry[] = [];
  for (const file of files) {
    const relative = trimSlashes(file.webkitRelativePath || file.name);
    entries.push({ name: file.name, isDir: false, size: file.size, fullPath: relative, file });
  }
  return entries;
}

function joinFolder(folder: string, relative: string): string {
  return (folder.endsWith('/') ? folder : folder + '/') + relative;
}

/**
 * Turns entries into the folders and files to create under `folder` (a decoded virtual path).
 * Every parent folder of a nested file is created, shallowest first, each once.
 */
export function planUpload(entries: readonly UploadEntry[], folder: string): UploadPlan {
  const folders = new Set<string>();
  const files: PlannedFile[] = [];
  const topLevel: string[] = [];
  const seenTop = new Set<string>();
  let isNested = false;
  for (const entry of entries) {
    const relative = trimSlashes(entry.fullPath || entry.name);
    if (!relative) continue;
    const parts = relative.split('/');
    if (parts.length > 1 || entry.isDir) isNested = true;
    const top = joinFolder(folder, parts[0]!) + (parts.length > 1 || entry.isDir ? '/' : '');
    if (!seenTop.has(top)) {
      seenTop.add(top);
      topLevel.push(top);
    }
    const parentCount = entry.isDir ? parts.length : parts.length - 1;
    for (let depth = 1; depth <= parentCount; depth += 1) folders.add(joinFolder(folder, parts.slice(0, depth).join('/')) + '/');
    if (!entry.isDir && entry.file) files.push({ path: joinFolder(folder, relative), file: entry.file, size: entry.file.size });
  }
  const orderedFolders = [...folders].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  return { folders: orderedFolders, files, topLevel, isNested };
}

type FileSystemEntryLike = {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath: string;
};
type FileEntryLike = FileSystemEntryLike & { file: (success: (file: File) => void, failure?: (error: unknown) => void) => void };
type DirectoryEntryLike = FileSystemEntryLike & {
  createReader: () => { readEntries: (success: (entries: FileSystemEntryLike[]) => void, failure?: (error: unknown) => void) => void };
};

function readFile(entry: FileEntryLike): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** All children of a folder: the reader hands them out in batches until an empty one. */
async function readChildren(entry: DirectoryEntryLike): Promise<FileSystemEntryLike[]> {
  const reader = entry.createReader();
  const children: FileSystemEntryLike[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntryLike[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return children;
    children.push(...batch);
  }
}

async function walk(entry: FileSystemEntryLike, prefix: string, into: UploadEntry[]): Promise<void> {
  const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    const file = await readFile(entry as FileEntryLike);
    into.push({ name: file.name, isDir: false, size: file.size, fullPath: relative, file });
    return;
  }
  if (!entry.isDirectory) return;
  into.push({ name: entry.name, isDir: true, size: 0, fullPath: relative });
  for (const child of await readChildren(entry as DirectoryEntryLike)) await walk(child, relative, into);
}

/**
 * The entries of a drop from the desktop, folders walked. Must be called synchronously from the
 * drop handler: the browser empties the DataTransfer once the event is over, so the entries are
 * taken first and walked afterwards.
 */
export function entriesFromDataTransfer(transfer: DataTransfer): Promise<UploadEntry[]> {
  const roots: FileSystemEntryLike[] = [];
  const plainFiles: File[] = [];
  const items = transfer.items ? [...transfer.items] : [];
  for (const item of items) {
    if (item.kind !== 'file') continue;
    const entry = (item as DataTransferItem & { webkitGetAsEntry?: () => FileSystemEntryLike | null }).webkitGetAsEntry?.();
    if (entry) roots.push(entry);
    else {
      const file = item.getAsFile();
      if (file) plainFiles.push(file);
    }
  }
  if (items.length === 0) plainFiles.push(...transfer.files);
  return (async () => {
    const entries = entriesFromFiles(plainFiles);
    for (const root of roots) await walk(root, '', entries);
    return entries;
  })();
}

/** Whether a drag carries files from outside the page. */
export function isExternalFileDrag(transfer: DataTransfer | null): boolean {
  return Boolean(transfer && [...transfer.types].includes('Files'));
}
