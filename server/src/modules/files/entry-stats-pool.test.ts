import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IS_FILE } from './entry-stats.js';
import { EntryStatPool } from './entry-stats-pool.js';

let folder: string;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-stat-pool-'));
  for (let index = 0; index < 50; index++) fs.writeFileSync(path.join(folder, `file-${index}`), 'x'.repeat(index));
});
afterEach(() => {
  fs.rmSync(folder, { recursive: true, force: true });
});

async function waitFor(condition: () => boolean, ms: number): Promise<void> {
  for (const until = Date.now() + ms; !condition() && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('EntryStatPool', () => {
  it('stops its workers after the idle time and starts them again for the next request, with the same answers', async () => {
    const pool = new EntryStatPool(2, 300);
    const names = fs.readdirSync(folder);
    const first = await pool.stat(folder, names);
    expect(first).toBeDefined();
    expect(pool.running).toBe(true);
    await waitFor(() => !pool.running, 10_000);
    expect(pool.running).toBe(false);
    // Retiring idle workers is not a failure: the pool stays available.
    expect(pool.available).toBe(true);
    const second = await pool.stat(folder, names);
    expect(pool.running).toBe(true);
    expect(Array.from(second!.sizes)).toEqual(names.map((name) => Number(name.slice(5))));
    expect(Array.from(second!.flags).every((flags) => (flags & IS_FILE) !== 0)).toBe(true);
    expect(Array.from(second!.sizes)).toEqual(Array.from(first!.sizes));
    await waitFor(() => !pool.running, 10_000);
  }, 60_000);
});
