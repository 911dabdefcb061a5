import type { ResourceItem } from '@burrow/protocol';
import { File, FileAudio, FileImage, FileText, FileVideo, Folder } from 'lucide-react';
import './share-item-icon.css';

/** The icon for an entry by kind: folder, image, audio, video, text or any other file. */
export function ShareItemIcon({ item, size }: { item: Pick<ResourceItem, 'isDir' | 'type'>; size: number }) {
  if (item.isDir) return <Folder className="share-icon share-icon--folder" aria-hidden="true" size={size} />;
  const Icon =
    item.type === 'image' ? FileImage : item.type === 'audio' ? FileAudio : item.type === 'video' ? FileVideo : item.type.startsWith('text') ? FileText : File;
  return <Icon className="share-icon" aria-hidden="true" size={size} />;
}
