import { describe, expect, it } from 'vitest';
import { shareLocationOf, shareRoute } from './share-location';

describe('share location', () => {
  it('splits the hash from the decoded path', () => {
    expect(shareLocationOf('/share/Ab-c_9')).toEqual({ hash: 'Ab-c_9', path: '/' });
    expect(shareLocationOf('/share/Ab-c_9/')).toEqual({ hash: 'Ab-c_9', path: '/' });
    expect(shareLocationOf('/share/Ab-c_9/my%20folder/')).toEqual({ hash: 'Ab-c_9', path: '/my folder/' });
    expect(shareLocationOf('/share/Ab-c_9/a%2Fb%23c.txt')).toEqual({ hash: 'Ab-c_9', path: '/a/b#c.txt' });
  });

  it('is undefined outside share pages', () => {
    expect(shareLocationOf('/share')).toBeUndefined();
    expect(shareLocationOf('/share/')).toBeUndefined();
    expect(shareLocationOf('/files/share/x')).toBeUndefined();
  });

  it('builds routes that read back the same', () => {
    const route = shareRoute('Ab-c_9', '/sub dir/50% #1.txt');
    expect(route).toBe('/share/Ab-c_9/sub%20dir/50%25%20%231.txt');
    expect(shareLocationOf(route)).toEqual({ hash: 'Ab-c_9', path: '/sub dir/50% #1.txt' });
    expect(shareRoute('h', '/')).toBe('/share/h/');
    expect(shareRoute('h', '')).toBe('/share/h/');
  });
});
