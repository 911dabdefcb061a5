import { describe, expect, it } from 'vitest';
import { asciiFallbackName, contentDisposition, encodeRfc5987 } from './content-disposition.js';

describe('contentDisposition', () => {
  it('encodes disposition names per RFC 5987 with a safe ASCII fallback', () => {
    expect(encodeRfc5987("a b'(c)*.txt")).toBe('a%20b%27%28c%29%2A.txt');
    expect(encodeRfc5987('naïve.txt')).toBe('na%C3%AFve.txt');
    expect(asciiFallbackName('a"b\\c/d\r\n%.txt')).toBe('a_b_c_d___.txt');
    expect(asciiFallbackName('')).toBe('download');
  });

  it('always sends both the quoted fallback and the UTF-8 name', () => {
    expect(contentDisposition('attachment', 'a.txt')).toBe(`attachment; filename="a.txt"; filename*=utf-8''a.txt`);
    expect(contentDisposition('inline', 'Ünïcode "x".pdf')).toBe(`inline; filename="_n_code _x_.pdf"; filename*=utf-8''%C3%9Cn%C3%AFcode%20%22x%22.pdf`);
  });
});
