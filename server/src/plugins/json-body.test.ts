import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/app.js';

/** What browsers send for a `JSON.stringify` body posted without a content type. */
const TEXT = { 'content-type': 'text/plain;charset=UTF-8' };

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterEach(async () => {
  await t.close();
});

describe('text bodies on routes that take JSON', () => {
  it('are read as JSON', async () => {
    const response = await t.request(admin, {
      method: 'PUT',
      url: '/api/users/1',
      headers: TEXT,
      payload: JSON.stringify({ what: 'user', which: ['locale'], data: { id: 1, locale: 'it' } }),
    });
    expect(response.statusCode).toBe(200);
    expect((await t.app.services.usersRepository.findById(1))!.locale).toBe('it');
  });

  it('answer malformed or empty JSON with 400, as a JSON-typed body does', async () => {
    for (const payload of ['{"what":', 'not json', '']) {
      for (const headers of [TEXT, { 'content-type': 'application/json' }]) {
        const response = await t.request(admin, { method: 'PUT', url: '/api/settings', headers, payload });
        expect(response.statusCode, `${headers['content-type']} ${payload}`).toBe(400);
        expect(response.body).toBe('400 Bad Request (malformed JSON)\n');
      }
    }
  });

  it('refuse prototype poisoning like the JSON parser', async () => {
    const response = await t.request(admin, {
      method: 'PUT',
      url: '/api/users/1',
      headers: TEXT,
      payload: '{"what":"user","which":["locale"],"data":{"id":1,"locale":"it"},"__proto__":{"admin":true}}',
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('text bodies elsewhere', () => {
  it('are file contents, byte for byte, when saving or uploading a file', async () => {
    fs.writeFileSync(path.join(t.root, 'notes.txt'), 'old');
    const saved = await t.request(admin, { method: 'PUT', url: '/api/resources/notes.txt', headers: TEXT, payload: '{"not": json' });
    expect(saved.statusCode).toBe(200);
    expect(fs.readFileSync(path.join(t.root, 'notes.txt'), 'utf8')).toBe('{"not": json');
    const uploaded = await t.request(admin, { method: 'POST', url: '/api/resources/new.json', headers: TEXT, payload: '{"a":1}' });
    expect(uploaded.statusCode).toBe(200);
    expect(fs.readFileSync(path.join(t.root, 'new.json'), 'utf8')).toBe('{"a":1}');
  });

  it('leave an unknown route a 404, not a parse error', async () => {
    const response = await t.request(admin, { method: 'POST', url: '/api/nothing-here', headers: TEXT, payload: '{"broken' });
    expect(response.statusCode).toBe(404);
  });
});
