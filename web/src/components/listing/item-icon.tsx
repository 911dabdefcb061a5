import type { ResourceItem } from '@burrow/protocol';
import { File, FileArchive, FileAudio, FileCode, FileImage, FileSpreadsheet, FileText, FileVideo, FileX, Folder, type LucideIcon } from 'lucide-react';

const archiveExtensions = new Set(['.zip', '.tar', '.gz', '.tgz', '.bz2', '.xz', '.zst', '.lz4', '.br', '.7z', '.rar', '.sz']);
const codeExtensions = new Set(['.js', '.ts', '.tsx', '.jsx', '.json', '.html', '.css', '.go', '.py', '.rs', '.c', '.h', '.cpp', '.java', '.sh', '.yml', '.yaml', '.toml', '.xml', '.php', '.rb']);
const sheetExtensions = new Set(['.csv', '.tsv', '.xls', '.xlsx', '.ods']);

export type IconKind = 'folder' | 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'code' | 'sheet' | 'archive' | 'broken' | 'file';

/** The kind of icon an item gets: its type first, then its extension. */
function iconKindOf(item: Pick<ResourceItem, 'isDir' | 'type' | 'extension' | 'name'>): IconKind {
  if (item.isDir) return 'folder';
  const extension = (item.extension || item.name.slice(item.name.lastIndexOf('.'))).toLowerCase();
  switch (item.type) {
    case 'image':
    case 'video':
    case 'audio':
    case 'pdf':
      return item.type;
    case 'invalid_link':
      return 'broken';
  }
  if (archiveExtensions.has(extension)) return 'archive';
  if (sheetExtensions.has(extension)) return 'sheet';
  if (codeExtensions.has(extension)) return 'code';
  if (item.type === 'text' || item.type === 'textImmutable') return 'text';
  return 'file';
}

const icons: Record<IconKind, LucideIcon> = {
  folder: Folder,
  image: FileImage,
  video: FileVideo,
  audio: FileAudio,
  pdf: FileText,
  text: FileText,
  code: FileCode,
  sheet: FileSpreadsheet,
  archive: FileArchive,
  broken: FileX,
  file: File,
};

export function ItemIcon({ item, size = 20, className }: { item: Pick<ResourceItem, 'isDir' | 'type' | 'extension' | 'name'>; size?: number; className?: string }) {
  const kind = iconKindOf(item);
  const Icon = icons[kind];
  return <Icon className={`item-icon item-icon--${kind}${className ? ' ' + className : ''}`} aria-hidden="true" size={size} strokeWidth={1.75} />;
}
