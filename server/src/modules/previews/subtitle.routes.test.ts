import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, loginAs, makeUser, type TestApp } from '../../test-support/app.js';
import { copyFixture, writeFile } from '../downloads/test-fixtures.js';

let t: TestApp;
let token: string;
beforeEach(async () => {
  t = await createTestApp();
  token = await t.login();
  copyFixture(t.root, 'media/clip.en.srt', '/videos/clip.en.srt');
  copyFixture(t.root, 'media/clip.vtt', '/videos/clip.vtt');
});
afterEach(async () => {
  await t.close();
});

const get = (url: string, userToken = token) => t.request(userToken, { method: 'GET', url });

describe('GET /api/subtitle', () => {
  it('converts SRT to WebVTT with the subtitle headers', async () => {
    const response = await get('/api/subtitle/videos/clip.en.srt?inline=true');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(response.headers['cache-control']).toBe('private');
    expect(response.headers['content-security-policy']).toContain("script-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toBe(`inline; filename="clip.en.vtt"; filename*=utf-8''clip.en.vtt`);
    expect(response.body.startsWith('WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.500\nFirst line of the clip\n')).toBe(true);
    expect(response.body).not.toMatch(/\d,\d{3}/);
  });

  it('turns <br> in SRT cues into line breaks', async () => {
    writeFile(t.root, '/videos/br.srt', '1\n00:00:01,000 --> 00:00:02,000\nline one<br>line two\n');
    const response = await get('/api/subtitle/videos/br.srt');
    expect(response.body).toBe('WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nline one\nline two\n');
  });

  it('sends WebVTT as is and converts ASS', async () => {
    const vtt = await get('/api/subtitle/videos/clip.vtt');
    expect(vtt.body).toBe(fs.readFileSync(path.join(t.root, 'videos/clip.vtt'), 'utf8'));
    writeFile(t.root, '/videos/clip.ass', '[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,{\\b1}Bold\\Nline\n');
    const ass = await get('/api/subtitle/videos/clip.ass');
    expect(ass.body).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nBold\nline\n');
  });

  it('answers 202 without download, 400 for folders and other files, 403 and 404 for paths', async () => {
    writeFile(t.root, '/videos/notes.txt', 'x');
    fs.mkdirSync(path.join(t.root, 'videos/subs.srt'));
    fs.writeFileSync(path.join(t.outside, 'leak.srt'), '1\n00:00:00,000 --> 00:00:01,000\nleak\n');
    fs.symlinkSync(path.join(t.outside, 'leak.srt'), path.join(t.root, 'videos/leak.srt'));
    await makeUser(t, { username: 'nodl', perm: { download: false } });
    expect((await get('/api/subtitle/videos/clip.en.srt', await loginAs(t, 'nodl'))).statusCode).toBe(202);
    const folder = await get('/api/subtitle/videos/subs.srt');
    expect(folder.statusCode).toBe(400);
    expect((await get('/api/subtitle/videos')).statusCode).toBe(400);
    expect((await get('/api/subtitle/videos/notes.txt')).statusCode).toBe(400);
    expect((await get('/api/subtitle/videos/missing.srt')).statusCode).toBe(404);
    expect((await get('/api/subtitle/videos/leak.srt')).statusCode).toBe(403);
    await makeUser(t, { username: 'ruled', rules: [{ regex: true, allow: false, path: '', regexp: { raw: '\\.srt$' } }] });
    expect((await get('/api/subtitle/videos/clip.en.srt', await loginAs(t, 'ruled'))).statusCode).toBe(403);
  });
});
