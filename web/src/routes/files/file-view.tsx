import type { Resource, TokenUser } from '@burrow/protocol';
import { asFolder } from './file-operations';
import type { FileActionContext } from './files-actions';
import { FilesToolbar } from './files-toolbar';
import { FileContentView, opensInEditor } from './file-content-view';
import { useFilesKeyboard } from './use-files-keyboard';

/**
 * A file on its own page: the editor for text, the preview for anything else. The editor keeps
 * the files screen's actions in the top bar; the preview brings its own bar with them.
 */
export function FileView({ file, user }: { file: Resource; user: TokenUser }) {
  const folder = asFolder(file.path.slice(0, file.path.lastIndexOf('/') + 1) || '/');
  const context: FileActionContext = { user, folder, resource: file, ordered: [], selection: [file], isListing: false, viewMode: 'list', isMultiple: false };
  useFilesKeyboard(context);
  return (
    <>
      {opensInEditor(file) && <FilesToolbar context={context} />}
      <FileContentView file={file} />
    </>
  );
}
