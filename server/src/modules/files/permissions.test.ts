import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionName } from '@burrow/protocol';
import { createFilesHarness, type FilesHarness } from './files.test-support.js';

let h: FilesHarness;
beforeAll(async () => {
  h = await createFilesHarness();
});
afterAll(async () => {
  await h.close();
});

const twice = (virtual: string) => encodeURIComponent(encodeURIComponent(virtual).replace(/%2F/g, '/'));

type Operation = {
  name: string;
  needs: PermissionName[];
  /** Status when allowed, and when refused. */
  ok: number;
  refused: number;
  run: (token: string) => ReturnType<FilesHarness['api']>;
};

const operations: Operation[] = [
  { name: 'list a folder', needs: [], ok: 200, refused: 0, run: (token) => h.api(token, 'GET', '/dir/') },
  { name: 'read a file', needs: [], ok: 200, refused: 0, run: (token) => h.api(token, 'GET', '/dir/f.txt') },
  { name: 'recursive listing', needs: [], ok: 200, refused: 0, run: (token) => h.t.request(token, { method: 'GET', url: '/api/resources/recursive/dir' }) },
  { name: 'checksum', needs: ['download'], ok: 200, refused: 202, run: (token) => h.api(token, 'GET', '/dir/f.txt', { query: 'checksum=sha1' }) },
  { name: 'X-Encoding', needs: ['download'], ok: 200, refused: 202, run: (token) => h.api(token, 'GET', '/dir/f.txt', { headers: { 'x-encoding': 'true' } }) },
  { name: 'create a file', needs: ['create'], ok: 200, refused: 403, run: (token) => h.api(token, 'POST', '/dir/new.txt', { query: 'override=false', payload: 'n' }) },
  { name: 'create a folder', needs: ['create'], ok: 200, refused: 403, run: (token) => h.api(token, 'POST', '/dir/newdir/') },
  { name: 'overwrite by POST', needs: ['create', 'modify'], ok: 200, refused: 403, run: (token) => h.api(token, 'POST', '/dir/over.txt', { query: 'override=true', payload: 'o' }) },
  { name: 'save', needs: ['modify'], ok: 200, refused: 403, run: (token) => h.api(token, 'PUT', '/dir/f.txt', { payload: 'saved' }) },
  { name: 'delete', needs: ['delete'], ok: 204, refused: 403, run: (token) => h.api(token, 'DELETE', '/dir/del.txt') },
  { name: 'copy', needs: ['create'], ok: 200, refused: 403, run: (token) => h.api(token, 'PATCH', '/dir/src.txt', { query: `action=copy&destination=${twice('/dir/copy.txt')}` }) },
  {
    name: 'copy over a file',
    needs: ['create', 'modify'],
    ok: 200,
    refused: 403,
    run: (token) => h.api(token, 'PATCH', '/dir/src.txt', { query: `action=copy&destination=${twice('/dir/over.txt')}&override=true` }),
  },
  { name: 'rename', needs: ['rename'], ok: 200, refused: 403, run: (token) => h.api(token, 'PATCH', '/dir/mv.txt', { query: `action=rename&destination=${twice('/dir/moved.txt')}` }) },
];

const switchable: PermissionName[] = ['create', 'rename', 'modify', 'delete', 'download', 'share', 'execute'];

describe('permission × endpoint matrix', () => {
  for (const missing of [undefined, ...switchable]) {
    it(missing ? `without ${missing}, only the endpoints needing it refuse` : 'with every permission, everything is allowed', async () => {
      const username = `user-${missing ?? 'all'}`;
      const scope = `/${username}`;
      for (const file of ['f.txt', 'over.txt', 'del.txt', 'src.txt', 'mv.txt']) h.put(`${username}/dir/${file}`, file);
      const perm = missing ? { [missing]: false, ...(missing === 'download' ? { share: false } : {}) } : {};
      const token = await h.user(username, { scope, perm });
      const outcome: Record<string, number> = {};
      const expected: Record<string, number> = {};
      for (const operation of operations) {
        outcome[operation.name] = (await operation.run(token)).statusCode;
        expected[operation.name] = missing && operation.needs.includes(missing) ? operation.refused : operation.ok;
      }
      expect(outcome).toEqual(expected);
      if (missing === 'download') {
        const file = (await h.api(token, 'GET', '/dir/f.txt')).json();
        expect(file).not.toHaveProperty('content');
      }
    });
  }
});
