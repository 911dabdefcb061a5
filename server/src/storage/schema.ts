import type { Generated } from 'kysely';

/** Table shapes. Booleans are stored as 0/1 and JSON as text so every query stays dialect-neutral. */
export type UsersTable = {
  id: Generated<number>;
  username: string;
  password_hash: string;
  scope: string;
  locale: string;
  view_mode: string;
  single_click: number;
  redirect_after_copy_move: number;
  hide_dotfiles: number;
  date_format: number;
  ace_editor_theme: string;
  sorting_by: string;
  sorting_asc: number;
  lock_password: number;
  perm: string;
  commands: string;
  rules: string;
  /** Milliseconds; tokens issued before this moment are revoked (password change). */
  tokens_valid_after: number;
  /** Token id exempt from tokens_valid_after: the session that changed its own password. */
  kept_token_jti: string | null;
  /** Milliseconds of the last update through the users API (drives X-Renew-Token). */
  updated_at: number;
  created_at: number;
};

type SettingsTable = {
  key: string;
  value: string;
};

type RevokedTokensTable = {
  jti: string;
  expires_at: number;
};

export type SharesTable = {
  hash: string;
  path: string;
  user_id: number;
  expire: number;
  password_hash: string;
  token: string;
  created_at: number;
  /** Device of the target when the link was made, as decimal text; null for older links. */
  target_dev: string | null;
  /** Inode of the target when the link was made, as decimal text; null for older links. */
  target_ino: string | null;
  /** Birth time of the target in nanoseconds, as decimal text; null where the filesystem keeps none. */
  target_birth: string | null;
  /** 1 for an upload-only link (a file request). */
  upload_only: Generated<number>;
  /** Note shown to uploaders of a file request. */
  note: Generated<string>;
  /** File request limits in bytes or files; 0 means no limit. */
  max_file_size: Generated<number>;
  max_total_size: Generated<number>;
  max_files: Generated<number>;
};

/** One upload made through a file request, from its creation (reserving name and size) on. */
type FileRequestUploadsTable = {
  upload_id: string;
  share_hash: string;
  /** Virtual path in the owner's scope. */
  path: string;
  length: number;
  created_at: number;
  /** When the file was placed; null while in progress. */
  finished_at: number | null;
};

export type UploadsTable = {
  id: string;
  user_id: number;
  /** Virtual path inside the user's scope. */
  path: string;
  /** Staging file holding the bytes received so far. */
  staging_path: string;
  length: number;
  offset: number;
  override: number;
  created_at: number;
  updated_at: number;
};

/** Search index: one row per name under the server root (see the search module's repository). */
type SearchEntriesTable = {
  id: Generated<number>;
  /** Real path relative to the server root, `/`-separated, no leading slash. */
  path: string;
  name: string;
  name_lower: string;
  /** Lower-case extension with its dot, or ''. */
  ext: string;
  /** 0 file, 1 folder, 2 symbolic link, 3 other. */
  kind: number;
};

type SearchStateTable = {
  key: string;
  value: string;
};

/** WebDAV dead properties: one row per property set with PROPPATCH. */
type WebdavPropertiesTable = {
  /** Real path of the entry relative to the server root, with a leading `/`. */
  path: string;
  /** Namespace URI of the property ('' for none). */
  namespace: string;
  name: string;
  /** The whole property element, serialised with its own namespace declarations. */
  xml: string;
};

/** A deleted item in its owner's trash (see the trash module). */
export type TrashTable = {
  /** Random id; also the item's name inside the trash folder. */
  id: string;
  /** Whose trash it is in. */
  user_id: number;
  name: string;
  /** Virtual path in the owner's scope when it was deleted. */
  path: string;
  /** Absolute real path it had. */
  real_path: string;
  /** Absolute path where the trash keeps it. */
  stored_path: string;
  is_dir: number;
  /** Bytes, a folder with all it holds. */
  size: number;
  /** Milliseconds. */
  deleted_at: number;
  /** Name of the user who deleted it. */
  deleted_by: string;
};

/** The provider account (issuer and subject) of a single sign-on user (see the oidc module). */
type OidcIdentitiesTable = {
  issuer: string;
  subject: string;
  user_id: number;
  /** Milliseconds. */
  created_at: number;
};

/** One audit log entry (see the audit module). Never holds passwords, tokens or secrets. */
export type AuditLogTable = {
  id: Generated<number>;
  /** Milliseconds. */
  time: number;
  /** Null for anonymous visitors and logins of unknown accounts. */
  user_id: number | null;
  username: string;
  client: string;
  action: string;
  /** Scope-relative path as the actor saw it ('' when none). */
  path: string;
  /** Second path of moves, renames and copies ('' otherwise). */
  destination: string;
  /** ok, denied or failed. */
  outcome: string;
  /** HTTP status of the answer; 0 when there was none. */
  status: number;
  /** JSON object of small details. */
  details: string;
};

/** A user's two-factor state (see the two-factor module); no row means never enrolled nor required. */
type TwoFactorTable = {
  user_id: number;
  /** The TOTP secret, encrypted; null until enrolment starts or after a reset. */
  secret: string | null;
  /** Milliseconds; null while the secret awaits its first code. */
  enabled_at: number | null;
  /** 1 when an admin requires two-factor for this user. */
  required: number;
  /** The last time step a code was accepted for, so none is taken twice. */
  last_step: number | null;
};

/** One unused recovery code: the SHA-256 of the code, hex. */
type RecoveryCodesTable = {
  user_id: number;
  code_hash: string;
};

/** A personal API token; the secret itself is never stored. */
export type ApiTokensTable = {
  id: string;
  user_id: number;
  name: string;
  /** SHA-256 of the whole token, hex. */
  token_hash: string;
  /** JSON permissions, intersected with the owner's on every use. */
  perm: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
};

/** When a periodic job last began anywhere in the cluster (see storage/cluster.ts). */
type ClusterJobsTable = {
  name: string;
  /** Milliseconds. */
  started_at: number;
  holder: string;
};

/** A claim on exclusive work, free again once `expires_at` (milliseconds) has passed. */
type ClusterLeasesTable = {
  name: string;
  holder: string;
  expires_at: number;
};

/** A WebDAV lock, kept here when instances share the database (see modules/webdav/locks.ts). */
export type WebdavLocksTable = {
  token: string;
  /** Real path of the locked entry. */
  key: string;
  root_href: string;
  scope: string;
  depth: string;
  owner_xml: string;
  user_id: number;
  timeout_seconds: number;
  /** Milliseconds. */
  expires_at: number;
};

/** Guess counts of one key, shared by instances (see modules/auth/shared-limits.ts). */
type SignInLimitsTable = {
  /** SHA-256 of the limiter's name and the key, hex. */
  key: string;
  /** JSON: failure times (milliseconds), oldest first. */
  failures: string;
  /** JSON: attempts in flight, as [id, reserved at]. */
  pending: string;
  next_slot: number;
  /** JSON: the paced turns still ahead (milliseconds). */
  waiting: string;
  /** When nothing in the row counts any more (milliseconds). */
  expires_at: number;
};

/** A login challenge between a right password and a right code, shared by instances. */
type TwoFactorChallengesTable = {
  /** SHA-256 of the challenge, hex. */
  hash: string;
  user_id: number;
  kind: string;
  expires_at: number;
  wrong_codes: number;
};

/** A single sign-on flow or session hand-off, shared by instances. */
type SignInFlowsTable = {
  /** SHA-256 of the id held in the cookie, hex. */
  id_hash: string;
  kind: string;
  /** JSON. */
  value: string;
  expires_at: number;
};

export type Database = {
  users: UsersTable;
  settings: SettingsTable;
  revoked_tokens: RevokedTokensTable;
  shares: SharesTable;
  uploads: UploadsTable;
  search_entries: SearchEntriesTable;
  search_state: SearchStateTable;
  webdav_properties: WebdavPropertiesTable;
  trash: TrashTable;
  two_factor: TwoFactorTable;
  recovery_codes: RecoveryCodesTable;
  api_tokens: ApiTokensTable;
  audit_log: AuditLogTable;
  oidc_identities: OidcIdentitiesTable;
  file_request_uploads: FileRequestUploadsTable;
  cluster_jobs: ClusterJobsTable;
  cluster_leases: ClusterLeasesTable;
  sign_in_limits: SignInLimitsTable;
  two_factor_challenges: TwoFactorChallengesTable;
  sign_in_flows: SignInFlowsTable;
  webdav_locks: WebdavLocksTable;
};
