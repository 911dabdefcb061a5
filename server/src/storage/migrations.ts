import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import { engineOf } from './engine.js';

/**
 * Both engines run the same migrations. Where their SQL differs (generated ids, the search
 * index's expression and trigram indexes) a migration asks which engine it runs on.
 */

/** A primary key the database numbers itself: AUTOINCREMENT on SQLite, an identity column on PostgreSQL. */
function generatedId(db: Kysely<unknown>, autoIncrement: boolean) {
  return (col: ColumnDefinitionBuilder) => {
    if (engineOf(db) === 'postgres') return col.primaryKey().generatedByDefaultAsIdentity();
    return autoIncrement ? col.primaryKey().autoIncrement() : col.primaryKey();
  };
}

/** Versioned migrations, applied in key order at start. Never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'integer', generatedId(db, true))
        .addColumn('username', 'varchar(255)', (col) => col.notNull())
        .addColumn('password_hash', 'varchar(255)', (col) => col.notNull())
        .addColumn('scope', 'text', (col) => col.notNull())
        .addColumn('locale', 'varchar(16)', (col) => col.notNull())
        .addColumn('view_mode', 'varchar(32)', (col) => col.notNull())
        .addColumn('single_click', 'integer', (col) => col.notNull())
        .addColumn('redirect_after_copy_move', 'integer', (col) => col.notNull())
        .addColumn('hide_dotfiles', 'integer', (col) => col.notNull())
        .addColumn('date_format', 'integer', (col) => col.notNull())
        .addColumn('ace_editor_theme', 'varchar(64)', (col) => col.notNull())
        .addColumn('sorting_by', 'varchar(32)', (col) => col.notNull())
        .addColumn('sorting_asc', 'integer', (col) => col.notNull())
        .addColumn('lock_password', 'integer', (col) => col.notNull())
        .addColumn('perm', 'text', (col) => col.notNull())
        .addColumn('commands', 'text', (col) => col.notNull())
        .addColumn('rules', 'text', (col) => col.notNull())
        .addColumn('tokens_valid_after', 'bigint', (col) => col.notNull())
        .addColumn('updated_at', 'bigint', (col) => col.notNull())
        .addColumn('created_at', 'bigint', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('users_username_unique').on('users').column('username').unique().execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('value', 'text', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('revoked_tokens')
        .addColumn('jti', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('expires_at', 'bigint', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('shares')
        .addColumn('hash', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('path', 'text', (col) => col.notNull())
        .addColumn('user_id', 'integer', (col) => col.notNull())
        .addColumn('expire', 'bigint', (col) => col.notNull())
        .addColumn('password_hash', 'varchar(255)', (col) => col.notNull())
        .addColumn('token', 'varchar(255)', (col) => col.notNull())
        .addColumn('created_at', 'bigint', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('shares_user').on('shares').columns(['user_id', 'path']).execute();

      await db.schema
        .createTable('uploads')
        .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('user_id', 'integer', (col) => col.notNull())
        .addColumn('path', 'text', (col) => col.notNull())
        .addColumn('staging_path', 'text', (col) => col.notNull())
        .addColumn('length', 'bigint', (col) => col.notNull())
        .addColumn('offset', 'bigint', (col) => col.notNull())
        .addColumn('override', 'integer', (col) => col.notNull())
        .addColumn('created_at', 'bigint', (col) => col.notNull())
        .addColumn('updated_at', 'bigint', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('uploads_user_path').on('uploads').columns(['user_id', 'path']).execute();

      await db.schema
        .createTable('search_entries')
        .addColumn('path', 'text', (col) => col.primaryKey())
        .addColumn('parent', 'text', (col) => col.notNull())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('name_lower', 'text', (col) => col.notNull())
        .addColumn('is_dir', 'integer', (col) => col.notNull())
        .addColumn('ext', 'varchar(32)', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('search_entries_parent').on('search_entries').column('parent').execute();
      await sql`select 1`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['search_entries', 'uploads', 'shares', 'revoked_tokens', 'settings', 'users']) {
        await db.schema.dropTable(table).execute();
      }
    },
  },
  '0002_search_index': {
    // The first search table was never written to; it is replaced by one keyed by an integer id
    // (the full-text index refers to rows by that id) and ordered by walk order (see below).
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('search_entries_parent').ifExists().execute();
      await db.schema.dropTable('search_entries').execute();
      await db.schema
        .createTable('search_entries')
        .addColumn('id', 'integer', generatedId(db, false))
        .addColumn('path', 'text', (col) => col.notNull())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('name_lower', 'text', (col) => col.notNull())
        .addColumn('ext', 'text', (col) => col.notNull())
        .addColumn('kind', 'integer', (col) => col.notNull())
        .execute();
      // Paths sort in depth-first walk order once '/' becomes the smallest character; control
      // characters 1 and 2 in names are escaped first so the mapping stays exact and ordered.
      if (engineOf(db) === 'postgres') {
        // Byte order ("C" collation), as SQLite compares; the locale's order would not keep walk order.
        await sql`CREATE INDEX search_entries_walk ON search_entries ((replace(replace(replace(path, chr(2), chr(2) || chr(2)), chr(1), chr(2) || chr(1)), '/', chr(1)) COLLATE "C"))`.execute(db);
        // Substring search over names: a trigram GIN index on the lower-case name.
        await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
        await sql`CREATE INDEX search_entries_name_trgm ON search_entries USING gin (name_lower gin_trgm_ops)`.execute(db);
      } else {
        await sql`CREATE INDEX search_entries_walk ON search_entries (replace(replace(replace(path, char(2), char(2, 2)), char(1), char(2, 1)), '/', char(1)))`.execute(db);
        // Substring search over names: trigram tokens, rowid = search_entries.id, no stored copy.
        await sql`CREATE VIRTUAL TABLE search_names USING fts5(name_lower, content='', contentless_delete=1, tokenize='trigram case_sensitive 1', detail=none)`.execute(db);
      }
      await db.schema
        .createTable('search_state')
        .addColumn('key', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('value', 'text', (col) => col.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('search_state').execute();
      if (engineOf(db) === 'sqlite') await sql`DROP TABLE search_names`.execute(db);
      await db.schema.dropTable('search_entries').execute();
    },
  },
  '0003_kept_session_token': {
    // A user who changes their own password keeps the session that made the change: its token id
    // is exempt from the revocation by tokens_valid_after (null when no token is kept).
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('kept_token_jti', 'varchar(64)').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('users').dropColumn('kept_token_jti').execute();
    },
  },
  '0004_webdav': {
    // WebDAV dead properties (PROPPATCH), keyed by the entry's real path below the server root,
    // so they follow the file whoever moves it and whichever scope names it.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webdav_properties')
        .addColumn('path', 'text', (col) => col.notNull())
        .addColumn('namespace', 'text', (col) => col.notNull())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('xml', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('webdav_properties_pk', ['path', 'namespace', 'name'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('webdav_properties').execute();
    },
  },
  '0005_share_target_identity': {
    // The device and inode of a link's target when it was made, and its birth time where the
    // filesystem keeps one (filesystems hand a freed inode number straight to the next file),
    // as decimal text: inode numbers can pass 2^53. A link whose path now holds another item is
    // retired; links made before this have nulls and record their target on first use.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('shares').addColumn('target_dev', 'text').execute();
      await db.schema.alterTable('shares').addColumn('target_ino', 'text').execute();
      await db.schema.alterTable('shares').addColumn('target_birth', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('shares').dropColumn('target_birth').execute();
      await db.schema.alterTable('shares').dropColumn('target_ino').execute();
      await db.schema.alterTable('shares').dropColumn('target_dev').execute();
    },
  },
  '0006_trash': {
    // Deleted items waiting in their owner's trash: where they were (scope path and real path),
    // where they are kept now, their size and who deleted them when.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('trash')
        .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('user_id', 'integer', (col) => col.notNull())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('path', 'text', (col) => col.notNull())
        .addColumn('real_path', 'text', (col) => col.notNull())
        .addColumn('stored_path', 'text', (col) => col.notNull())
        .addColumn('is_dir', 'integer', (col) => col.notNull())
        .addColumn('size', 'bigint', (col) => col.notNull())
        .addColumn('deleted_at', 'bigint', (col) => col.notNull())
        .addColumn('deleted_by', 'varchar(255)', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('trash_user_deleted').on('trash').columns(['user_id', 'deleted_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('trash').execute();
    },
  },
  '0007_two_factor_and_api_tokens': {
    // Two-factor: a user's TOTP secret (encrypted, see the two-factor module), whether it is
    // confirmed, whether an admin requires it, and the last time step accepted, so no code is
    // taken twice; recovery codes as SHA-256 hashes. API tokens: SHA-256 of the secret, never
    // the secret itself, with their permissions, expiry and last use.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('two_factor')
        .addColumn('user_id', 'integer', (col) => col.primaryKey())
        .addColumn('secret', 'text')
        .addColumn('enabled_at', 'bigint')
        .addColumn('required', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('last_step', 'bigint')
        .execute();
      await db.schema
        .createTable('recovery_codes')
        .addColumn('user_id', 'integer', (col) => col.notNull())
        .addColumn('code_hash', 'varchar(64)', (col) => col.notNull())
        .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
        .execute();
      await db.schema
        .createTable('api_tokens')
        .addColumn('id', 'varchar(32)', (col) => col.primaryKey())
        .addColumn('user_id', 'integer', (col) => col.notNull())
        .addColumn('name', 'varchar(255)', (col) => col.notNull())
        .addColumn('token_hash', 'varchar(64)', (col) => col.notNull())
        .addColumn('perm', 'text', (col) => col.notNull())
        .addColumn('created_at', 'bigint', (col) => col.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema.createIndex('api_tokens_hash').on('api_tokens').column('token_hash').unique().execute();
      await db.schema.createIndex('api_tokens_user').on('api_tokens').column('user_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('api_tokens').execute();
      await db.schema.dropTable('recovery_codes').execute();
      await db.schema.dropTable('two_factor').execute();
    },
  },
  '0008_oidc': {
    // Which provider account each single sign-on user is: a user is found again by the issuer and
    // subject of the ID token, so a later change of the claim that names them cannot make them
    // someone else.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('oidc_identities')
        .addColumn('issuer', 'text', (col) => col.notNull())
        .addColumn('subject', 'text', (col) => col.notNull())
        .addColumn('user_id', 'integer', (col) => col.notNull().unique())
        .addColumn('created_at', 'bigint', (col) => col.notNull())
        .addPrimaryKeyConstraint('oidc_identities_pk', ['issuer', 'subject'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('oidc_identities').execute();
    },
  },
  '0009_audit_log': {
    // Who did what, when and from where (see the audit module). Read newest first, by time
    // range and by actor; the id breaks ties between entries of the same millisecond.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'integer', generatedId(db, true))
        .addColumn('time', 'bigint', (col) => col.notNull())
        .addColumn('user_id', 'integer')
        .addColumn('username', 'varchar(255)', (col) => col.notNull())
        .addColumn('client', 'varchar(64)', (col) => col.notNull())
        .addColumn('action', 'varchar(64)', (col) => col.notNull())
        .addColumn('path', 'text', (col) => col.notNull())
        .addColumn('destination', 'text', (col) => col.notNull())
        .addColumn('outcome', 'varchar(16)', (col) => col.notNull())
        .addColumn('status', 'integer', (col) => col.notNull())
        .addColumn('details', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('audit_log_time').on('audit_log').columns(['time', 'id']).execute();
      await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['username', 'time', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('audit_log').execute();
    },
  },
  '0010_file_requests': {
    // Upload-only links (file requests): the link's kind, its limits (0 means none) and the note
    // shown to uploaders; and one row per upload made through such a link, reserving its name and
    // declared size from the moment it is created, so parallel uploads cannot pass the limits.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('shares').addColumn('upload_only', 'integer', (col) => col.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('shares').addColumn('note', 'text', (col) => col.notNull().defaultTo('')).execute();
      await db.schema.alterTable('shares').addColumn('max_file_size', 'bigint', (col) => col.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('shares').addColumn('max_total_size', 'bigint', (col) => col.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('shares').addColumn('max_files', 'integer', (col) => col.notNull().defaultTo(0)).execute();
      await db.schema
        .createTable('file_request_uploads')
        .addColumn('upload_id', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('share_hash', 'varchar(64)', (col) => col.notNull())
        .addColumn('path', 'text', (col) => col.notNull())
        .addColumn('length', 'bigint', (col) => col.notNull())
        .addColumn('created_at', 'bigint', (col) => col.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema.createIndex('file_request_uploads_share').on('file_request_uploads').column('share_hash').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('file_request_uploads').execute();
      for (const column of ['max_files', 'max_total_size', 'max_file_size', 'note', 'upload_only']) {
        await db.schema.alterTable('shares').dropColumn(column).execute();
      }
    },
  },
  '0011_cluster': {
    // Instances sharing one database: when each periodic job last began (so that one instance
    // runs it per period), and claims on exclusive work that lapse when their holder dies.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('cluster_jobs')
        .addColumn('name', 'varchar(128)', (col) => col.primaryKey())
        .addColumn('started_at', 'bigint', (col) => col.notNull())
        .addColumn('holder', 'varchar(64)', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('cluster_leases')
        .addColumn('name', 'varchar(256)', (col) => col.primaryKey())
        .addColumn('holder', 'varchar(64)', (col) => col.notNull())
        .addColumn('expires_at', 'bigint', (col) => col.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('cluster_leases').execute();
      await db.schema.dropTable('cluster_jobs').execute();
    },
  },
  '0012_shared_sign_in': {
    // Sign-in state that instances sharing a PostgreSQL database must agree on (a single SQLite
    // instance keeps it in memory and leaves these tables empty): counts of password and code
    // guesses per key (a SHA-256 of it) with their JSON lists of failure times, attempts in flight
    // and paced turns; two-factor login challenges (SHA-256 of each, with expiry and wrong codes);
    // single sign-on flows between the redirect and the callback, and sessions waiting for the
    // app to collect them (SHA-256 of the cookie's id). Every row expires; a periodic sweep deletes
    // the expired ones.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sign_in_limits')
        .addColumn('key', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('failures', 'text', (col) => col.notNull())
        .addColumn('pending', 'text', (col) => col.notNull())
        .addColumn('next_slot', 'bigint', (col) => col.notNull())
        .addColumn('waiting', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'bigint', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('sign_in_limits_expires').on('sign_in_limits').column('expires_at').execute();
      await db.schema
        .createTable('two_factor_challenges')
        .addColumn('hash', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('user_id', 'integer', (col) => col.notNull())
        .addColumn('kind', 'varchar(16)', (col) => col.notNull())
        .addColumn('expires_at', 'bigint', (col) => col.notNull())
        .addColumn('wrong_codes', 'integer', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('two_factor_challenges_user').on('two_factor_challenges').column('user_id').execute();
      await db.schema.createIndex('two_factor_challenges_expires').on('two_factor_challenges').column('expires_at').execute();
      await db.schema
        .createTable('sign_in_flows')
        .addColumn('id_hash', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('kind', 'varchar(32)', (col) => col.notNull())
        .addColumn('value', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'bigint', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('sign_in_flows_expires').on('sign_in_flows').column('expires_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('sign_in_flows').execute();
      await db.schema.dropTable('two_factor_challenges').execute();
      await db.schema.dropTable('sign_in_limits').execute();
    },
  },
  '0013_shared_locks': {
    // WebDAV locks, for instances sharing the database: a lock taken through one instance must
    // hold on all of them. (One instance alone keeps its locks in memory; the table stays empty.)
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webdav_locks')
        .addColumn('token', 'varchar(128)', (col) => col.primaryKey())
        .addColumn('key', 'text', (col) => col.notNull())
        .addColumn('root_href', 'text', (col) => col.notNull())
        .addColumn('scope', 'varchar(16)', (col) => col.notNull())
        .addColumn('depth', 'varchar(16)', (col) => col.notNull())
        .addColumn('owner_xml', 'text', (col) => col.notNull())
        .addColumn('user_id', 'integer', (col) => col.notNull())
        .addColumn('timeout_seconds', 'integer', (col) => col.notNull())
        .addColumn('expires_at', 'bigint', (col) => col.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('webdav_locks').execute();
    },
  },
  '0014_search_index_postgres': {
    // One path, one row: instances sharing the index may notice the same change and insert the
    // same path at once, and a unique walk-order index (the key maps paths one to one) lets the
    // second insert do nothing. Duplicates left by earlier versions go first.
    async up(db: Kysely<unknown>) {
      if (engineOf(db) === 'postgres') {
        await sql`DELETE FROM search_entries a USING search_entries b WHERE a.path = b.path AND a.id > b.id`.execute(db);
        await sql`DROP INDEX search_entries_walk`.execute(db);
        await sql`CREATE UNIQUE INDEX search_entries_walk ON search_entries ((replace(replace(replace(path, chr(2), chr(2) || chr(2)), chr(1), chr(2) || chr(1)), '/', chr(1)) COLLATE "C"))`.execute(db);
      } else {
        await sql`DELETE FROM search_names WHERE rowid IN (SELECT id FROM search_entries WHERE id NOT IN (SELECT min(id) FROM search_entries GROUP BY path))`.execute(db);
        await sql`DELETE FROM search_entries WHERE id NOT IN (SELECT min(id) FROM search_entries GROUP BY path)`.execute(db);
        await sql`DROP INDEX search_entries_walk`.execute(db);
        await sql`CREATE UNIQUE INDEX search_entries_walk ON search_entries (replace(replace(replace(path, char(2), char(2, 2)), char(1), char(2, 1)), '/', char(1)))`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      await sql`DROP INDEX search_entries_walk`.execute(db);
      if (engineOf(db) === 'postgres') {
        await sql`CREATE INDEX search_entries_walk ON search_entries ((replace(replace(replace(path, chr(2), chr(2) || chr(2)), chr(1), chr(2) || chr(1)), '/', chr(1)) COLLATE "C"))`.execute(db);
      } else {
        await sql`CREATE INDEX search_entries_walk ON search_entries (replace(replace(replace(path, char(2), char(2, 2)), char(1), char(2, 1)), '/', char(1)))`.execute(db);
      }
    },
  },
};
