import { describe, expect, it } from 'vitest';
import { entriesFromFiles, planUpload, type UploadEntry } from './upload-entries';

function file(name: string, content = 'x', relative = ''): File {
  const value = new File([content], name);
  if (relative) Object.defineProperty(value, 'webkitRelativePath', { value: relative });
  return value;
}

describe('planUpload', () => {
  it('sends flat files straight into the folder', () => {
    const plan = planUpload(entriesFromFiles([file('a.txt'), file('b.txt', 'bb')]), '/docs/');
    expect(plan.folders).toEqual([]);
    expect(plan.files.map((entry) => [entry.path, entry.size])).toEqual([
      ['/docs/a.txt', 1],
      ['/docs/b.txt', 2],
    ]);
    expect(plan.topLevel).toEqual(['/docs/a.txt', '/docs/b.txt']);
    expect(plan.isNested).toBe(false);
  });

  it('creates every parent folder once, shallowest first', () => {
    const plan = planUpload(
      entriesFromFiles([file('c.txt', 'c', 'pics/2024/deep/c.txt'), file('a.txt', 'a', 'pics/a.txt'), file('b.txt', 'b', 'pics/2024/b.txt')]),
      '/',
    );
    expect(plan.folders).toEqual(['/pics/', '/pics/2024/', '/pics/2024/deep/']);
    expect(plan.files.map((entry) => entry.path)).toEqual(['/pics/2024/deep/c.txt', '/pics/a.txt', '/pics/2024/b.txt']);
    expect(plan.topLevel).toEqual(['/pics/']);
    expect(plan.isNested).toBe(true);
  });

  it('keeps empty dropped folders', () => {
    const entries: UploadEntry[] = [{ name: 'empty', isDir: true, size: 0, fullPath: 'empty' }];
    const plan = planUpload(entries, '/x');
    expect(plan.folders).toEqual(['/x/empty/']);
    expect(plan.files).toEqual([]);
    expect(plan.topLevel).toEqual(['/x/empty/']);
  });
});
