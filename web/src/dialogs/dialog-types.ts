import type { ArchiveFormat, Resource, ResourceItem } from '@burrow/protocol';

/*
 * The dialogs' types: what each dialog takes, by name. The registry, the dialog store and the
 * dialogs themselves import these from here, so none of them imports another for its types.
 */

/** What every dialog receives besides its own props. */
export type DialogControls = {
  dialogId: number;
  /** Closes this dialog (focus returns to what opened it). */
  onClose: () => void;
};

export type NewResourceDialogProps = {
  /** Decoded virtual path of the folder to create in, with a trailing slash. */
  folder: string;
  /** Receives the new item's path instead of opening it. */
  onCreated?: (path: string) => void;
};

export type ApiTokenDialogProps = {
  /** Called once a token exists, so the list behind the dialog shows it. */
  onCreated: () => void;
};

export type ReplaceChoice = 'cancel' | 'continue' | 'replace';

export type ReplaceRenameChoice = 'cancel' | 'rename' | 'replace';

export type ReplaceDialogProps = { onChoice: (choice: ReplaceChoice) => void };

export type ReplaceRenameDialogProps = {
  /** Names that already exist at the destination. */
  names: string[];
  onChoice: (choice: ReplaceRenameChoice) => void;
};

export type ConfirmDialogProps = {
  title: string;
  message: string;
  /** The label of the destructive button. */
  confirmLabel: string;
  onConfirm: () => Promise<void>;
};

export type DeleteDialogProps = {
  /** Names of the items to delete (one name is shown in the question). */
  names: string[];
  onConfirm: () => Promise<void>;
};

export type DeleteUserDialogProps = {
  userId: number;
  username: string;
};

export type DiscardChangesDialogProps = {
  /** Saves the editor's text; resolves true when saved (the dialog then lets the navigation go on). */
  onSave: () => Promise<boolean>;
  /** Drops the changes and goes on. */
  onDiscard: () => void;
};

export type DownloadDialogProps = {
  onChoose: (format: ArchiveFormat) => void;
};

export type HelpDialogProps = Record<never, never>;

/** An item, or the folder or file on screen (which may carry its counts). */
export type InfoSubject = ResourceItem & Pick<Resource, 'numDirs' | 'numFiles'>;

export type InfoDialogProps = {
  items: InfoSubject[];
  /** Checksums are offered only to users allowed to download. */
  canDownload: boolean;
};

export type MessageDialogProps = { message: string };

export type RenameDialogProps = {
  name: string;
  /** Other names in the same folder, to warn about a clash before asking the server. */
  siblings?: readonly string[];
  /**
   * Called with the trimmed new name when it differs from the current one; resolving to false
   * keeps the dialog open (a clash question was cancelled).
   */
  onRename: (name: string) => Promise<void | boolean>;
};

export type ShareDeleteDialogProps = {
  /** Deletes the link; the dialog closes when it succeeds and shows the error when it fails. */
  onConfirm: () => Promise<void>;
};

/** The item to share: a listing entry or the file on screen will do. */
export type ShareTarget = { path: string; name: string; isDir: boolean };

export type ShareDialogProps = { item: ShareTarget };

export type TransferDialogProps = {
  /** Paths of the items to move or copy. */
  paths: string[];
  /** The folder they are in, with a trailing slash. */
  source: string;
  canCreate: boolean;
  singleClick: boolean;
  /**
   * Runs the move or copy into the chosen folder (conflicts are handled there); false keeps the
   * dialog open (the clash question was cancelled).
   */
  onConfirm: (destination: string) => Promise<void | boolean>;
};

export type UploadDialogProps = {
  /** Decoded virtual path of the destination folder, with a trailing slash. */
  folder: string;
};

export type AbortUploadsDialogProps = { onConfirm: () => void };

/** The files screen's dialogs by name. */
export type FilesDialogPropsMap = {
  info: InfoDialogProps;
  help: HelpDialogProps;
  delete: DeleteDialogProps;
  rename: RenameDialogProps;
  move: TransferDialogProps;
  copy: TransferDialogProps;
  download: DownloadDialogProps;
  replace: ReplaceDialogProps;
  'replace-rename': ReplaceRenameDialogProps;
  error: MessageDialogProps;
  success: MessageDialogProps;
};

/**
 * Every dialog by name with its props. Add a dialog here and in the registry's
 * `dialogComponents`; then `openDialog('name', props)` is type-checked.
 */
export type DialogPropsMap = {
  'new-folder': NewResourceDialogProps;
  'new-file': NewResourceDialogProps;
  'discard-changes': DiscardChangesDialogProps;
  'delete-user': DeleteUserDialogProps;
  share: ShareDialogProps;
  'share-delete': ShareDeleteDialogProps;
  upload: UploadDialogProps;
  'upload-abort': AbortUploadsDialogProps;
  confirm: ConfirmDialogProps;
  'api-token': ApiTokenDialogProps;
} & FilesDialogPropsMap;

export type DialogName = keyof DialogPropsMap;
export type DialogPropsOf<K extends DialogName> = DialogPropsMap[K];
