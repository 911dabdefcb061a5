import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ChecksumAlgorithms, type ChecksumAlgorithm, type RecursiveItem, type Resource } from '@burrow/protocol';
import type { UserRecord } from '../users/users.model.js';
import { badRequest, internal, notFound } from '../../errors.js';
import type { Actor, FilesDeps } from './files.deps.js';
import { describeFile, listFolderJson, listRecursive } from './listing.js';
import { createFolder, createResource, saveResource, type WriteBody, type WriteResult } from './write.js';
import { removeResource } from './delete.js';
import { patchResource, type PatchOptions } from './copy-move.js';

export type GetOptions = {
  /** `?checksum=` value, when present. */
  checksum?: string;
  /** `X-Encoding: true`: the raw bytes of a text file instead of JSON. */
  rawText: boolean;
  /** `?first=N`: a folder's first N items only. */
  first?: number;
};

/** What a resource GET answers; the route turns it into HTTP. */
export type GetResult =
  | { kind: 'json'; resource: Resource }
  /** A folder listing, already serialised as UTF-8 JSON in parts sent one after the other (big folders would make a huge object). */
  | { kind: 'jsonText'; text: Buffer[] }
  /** 202 with no body: the request needs `download`, which the user lacks. */
  | { kind: 'accepted' }
  | { kind: 'raw'; stream: Readable; size: number };

/** Opens a file for reading, refusing anything but a regular file (a pipe would block forever). */
async function openRegularFile(real: string): Promise<fs.promises.FileHandle> {
  const handle = await fs.promises.open(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  const stat = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  if (!stat.isFile()) {
    await handle.close();
    throw badRequest('not a regular file');
  }
  return handle;
}

async function hashFile(real: string, algorithm: ChecksumAlgorithm): Promise<string> {
  const hash = crypto.createHash(algorithm);
  const handle = await openRegularFile(real);
  await pipeline(handle.createReadStream(), hash);
  return hash.digest('hex');
}

export type FilesService = ReturnType<typeof createFilesService>;

/** The resources use-cases: each takes the acting user and a decoded virtual path. */
export function createFilesService(deps: FilesDeps) {

  /** The user's scope; its gate refuses denied paths, hidden dotfiles among them, for every operation. */
  async function actorOf(user: UserRecord): Promise<Actor> {
    return { user, scope: await deps.scopes.forUser(user) };
  }

  return {
    hooks: deps.hooks,

    async get(user: UserRecord, virtualPath: string, options: GetOptions): Promise<GetResult> {
      const { scope } = await actorOf(user);
      const resolved = await scope.resolve(virtualPath, 'read');
      if (!resolved.stat) throw notFound();
      const isDir = resolved.stat.isDirectory();
      if (options.checksum !== undefined) {
        if (!user.perm.download) return { kind: 'accepted' };
        // The protocol answers a folder's checksum with 500, before looking at the algorithm.
        if (isDir) throw internal('checksum of a folder');
        if (!(ChecksumAlgorithms as readonly string[]).includes(options.checksum)) throw badRequest('invalid checksum algorithm');
        const resource = await describeFile(scope, resolved, { content: false, user });
        if (resource.type === 'invalid_link') throw notFound();
        resource.checksums = { [options.checksum]: await hashFile(resolved.real, options.checksum as ChecksumAlgorithm) };
        return { kind: 'json', resource };
      }
      if (isDir) return { kind: 'jsonText', text: await listFolderJson(scope, resolved, user.sorting, options.first) };
      if (options.rawText) {
        if (!user.perm.download) return { kind: 'accepted' };
        const resource = await describeFile(scope, resolved, { content: false, user });
        if (resource.type === 'text') {
          const handle = await openRegularFile(resolved.real);
          return { kind: 'raw', stream: handle.createReadStream(), size: (await handle.stat()).size };
        }
      }
      return { kind: 'json', resource: await describeFile(scope, resolved, { content: user.perm.download, user }) };
    },

    async recursive(user: UserRecord, virtualPath: string, signal?: AbortSignal): Promise<RecursiveItem[]> {
      const { scope } = await actorOf(user);
      const resolved = await scope.resolve(virtualPath, 'read');
      return listRecursive(scope, resolved, signal);
    },

    async create(user: UserRecord, virtualPath: string, options: { override: boolean; body: WriteBody }): Promise<WriteResult> {
      return createResource(deps, await actorOf(user), virtualPath, options);
    },

    /** One new folder whose parent exists (WebDAV MKCOL); see `createFolder`. */
    async makeFolder(user: UserRecord, virtualPath: string): Promise<void> {
      return createFolder(deps, await actorOf(user), virtualPath);
    },

    async save(user: UserRecord, virtualPath: string, body: WriteBody): Promise<WriteResult> {
      return saveResource(deps, await actorOf(user), virtualPath, body);
    },

    async remove(user: UserRecord, virtualPath: string): Promise<void> {
      return removeResource(deps, await actorOf(user), virtualPath);
    },

    async patch(user: UserRecord, virtualPath: string, options: PatchOptions): Promise<void> {
      return patchResource(deps, await actorOf(user), virtualPath, options);
    },
  };
}
