import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction.js';

describe('redactUrl', () => {
  it('hides auth= and token= values however the name is written, and nothing else', () => {
    expect(redactUrl('/api/raw/a.txt?auth=x.y.z')).toBe('/api/raw/a.txt?auth=[redacted]');
    expect(redactUrl('/api/public/dl/h?token=abc&inline=true')).toBe('/api/public/dl/h?token=[redacted]&inline=true');
    expect(redactUrl('/a?x=1&%61uth=x.y.z&AUTH=q&t%6Fken=s#frag')).toBe('/a?x=1&%61uth=[redacted]&AUTH=[redacted]&t%6Fken=[redacted]#frag');
    expect(redactUrl('/api/resources/auth=file?other=auth%3D1')).toBe('/api/resources/auth=file?other=auth%3D1');
    expect(redactUrl('/plain')).toBe('/plain');
  });
});
