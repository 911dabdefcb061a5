import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { FileEvent } from '../../storage/file-events.js';

export type DeadProperty = { namespace: string; name: string; xml: string };

export type DeadProperties = ReturnType<typeof createDeadProperties>;

/** `key` and every key below it: the key itself, or those starting `key/` (`/` sorts just before `0`). */
function subtree(key: string) {
  const folder = key === '/' ? '' : key;
  return { exact: key, from: `${folder}/`, to: `${folder}0` };
}

/**
 * Dead properties of WebDAV resources in the database, keyed by the entry's real path relative
 * to the server root (the same file seen through two scopes has one set of properties). The
 * file events keep them attached to their files: moves carry them along, copies duplicate them,
 * deletions and new files at an old name drop them.
 */
export function createDeadProperties(db: Db, serverRoot: () => Promise<string>) {
  /** The key of a real path: relative to the server root, or absolute when it lies outside. */
  async function keyOf(real: string): Promise<string> {
    const root = await serverRoot();
    if (real === root) return '/';
    const prefix = root.endsWith('/') ? root : `${root}/`;
    return real.startsWith(prefix) ? `/${real.slice(prefix.length)}` : `!${real}`;
  }

  async function removeTree(key: string): Promise<void> {
    const range = subtree(key);
    await db
      .deleteFrom('webdav_properties')
      .where((eb) => eb.or([eb('path', '=', range.exact), eb.and([eb('path', '>=', range.from), eb('path', '<', range.to)])]))
      .execute();
  }

  /** Rewrites (moved) or duplicates (copied) the rows of `from`'s subtree under `to`. */
  async function carry(fromKey: string, toKey: string, mode: 'move' | 'copy'): Promise<void> {
    if (fromKey === toKey) return;
    const range = subtree(fromKey);
    await db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('webdav_properties')
        .where((eb) => eb.or([eb('path', '=', toKey), eb.and([eb('path', '>=', subtree(toKey).from), eb('path', '<', subtree(toKey).to)])]))
        .execute();
      const rows = await trx
        .selectFrom('webdav_properties')
        .selectAll()
        .where((eb) => eb.or([eb('path', '=', range.exact), eb.and([eb('path', '>=', range.from), eb('path', '<', range.to)])]))
        .execute();
      if (rows.length === 0) return;
      if (mode === 'move') {
        await trx
          .deleteFrom('webdav_properties')
          .where((eb) => eb.or([eb('path', '=', range.exact), eb.and([eb('path', '>=', range.from), eb('path', '<', range.to)])]))
          .execute();
      }
      for (let start = 0; start < rows.length; start += 200) {
        const batch = rows.slice(start, start + 200).map((row) => ({ ...row, path: toKey + row.path.slice(fromKey.length) }));
        await trx.insertInto('webdav_properties').values(batch).execute();
      }
    });
  }

  return {
    keyOf,

    async list(real: string): Promise<DeadProperty[]> {
      return db.selectFrom('webdav_properties').select(['namespace', 'name', 'xml']).where('path', '=', await keyOf(real)).orderBy('namespace').orderBy('name').execute();
    },

    /**
     * Applies one PROPPATCH in document order, all or nothing: `xml` undefined removes the
     * property (removing an absent one is no error).
     */
    async apply(real: string, operations: Array<{ namespace: string; name: string; xml?: string }>): Promise<void> {
      const key = await keyOf(real);
      await db.transaction().execute(async (trx) => {
        for (const operation of operations) {
          if (operation.xml === undefined) {
            await trx.deleteFrom('webdav_properties').where('path', '=', key).where('namespace', '=', operation.namespace).where('name', '=', operation.name).execute();
          } else {
            await trx
              .insertInto('webdav_properties')
              .values({ path: key, namespace: operation.namespace, name: operation.name, xml: operation.xml })
              .onConflict((oc) => oc.columns(['path', 'namespace', 'name']).doUpdateSet({ xml: sql`excluded.xml` }))
              .execute();
          }
        }
      });
    },

    /** Keeps the properties with their files as Burrow changes the disk. */
    async onFileEvent(event: FileEvent): Promise<void> {
      switch (event.kind) {
        case 'deleted':
          return removeTree(await keyOf(event.real));
        case 'created':
          // Left over from an entry deleted behind Burrow's back: a new file starts bare.
          return removeTree(await keyOf(event.real));
        case 'moved':
          return carry(await keyOf(event.fromReal), await keyOf(event.toReal), 'move');
        case 'copied':
          return carry(await keyOf(event.fromReal), await keyOf(event.toReal), 'copy');
        default:
          return undefined;
      }
    },
  };
}
