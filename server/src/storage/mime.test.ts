import { describe, expect, it } from 'vitest';
import { isActiveContent, isScriptOrStyle, mimeTypeOf } from './mime.js';

describe('mime types', () => {
  it('looks types up by extension, case-insensitively', () => {
    expect(mimeTypeOf('movie.MKV')).toBe('video/x-matroska');
    expect(mimeTypeOf('song.opus')).toBe('video/ogg');
    expect(mimeTypeOf('track.m4a')).toBe('audio/mp4');
    expect(mimeTypeOf('notes.txt')).toMatch(/^text\/plain/);
    expect(mimeTypeOf('archive.tar.gz')).toBe('application/gzip');
    expect(mimeTypeOf('README')).toBeUndefined();
    expect(mimeTypeOf('file.unknownext')).toBeUndefined();
    expect(mimeTypeOf('.bashrc')).toBeUndefined();
  });

  it('flags what a browser could run or render as a document', () => {
    for (const name of ['page.html', 'page.htm', 'page.xhtml', 'image.svg', 'data.xml', 'script.js', 'doc.pdf']) {
      expect(isActiveContent(mimeTypeOf(name)), name).toBe(true);
    }
    expect(isActiveContent('Application/Atom+XML; charset=utf-8')).toBe(true);
    for (const name of ['photo.jpg', 'notes.txt', 'movie.mp4', 'data.json', 'README']) {
      expect(isActiveContent(mimeTypeOf(name)), name).toBe(false);
    }
  });

  it('flags what a browser would run as a script or apply as a style sheet', () => {
    for (const name of ['app.js', 'APP.JS', 'module.mjs', 'site.css']) expect(isScriptOrStyle(mimeTypeOf(name)), name).toBe(true);
    for (const type of ['application/javascript', 'Application/X-JavaScript; charset=utf-8', 'text/ecmascript', 'text/jscript', 'text/javascript1.5', 'text/CSS']) {
      expect(isScriptOrStyle(type), type).toBe(true);
    }
    for (const name of ['page.html', 'image.svg', 'notes.txt', 'data.json', 'code.ts', 'doc.pdf', 'README']) {
      expect(isScriptOrStyle(mimeTypeOf(name)), name).toBe(false);
    }
  });
});
