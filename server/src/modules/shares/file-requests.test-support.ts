import type { AddressInfo } from 'node:net';
import type { Share } from '@burrow/protocol';
import type { TestApp } from '../../test-support/app.js';
import { rawRequest, type RawResponse } from '../uploads/tus.test-support.js';

/** The `Upload-Metadata` header tus-js-client sends for a file name. */
const metadataFor = (name: string) => `filename ${Buffer.from(name).toString('base64')},filetype YXBwbGljYXRpb24vb2N0ZXQtc3RyZWFt`;

/** Listens on 127.0.0.1 (once) and returns the port. */
export async function portOf(t: TestApp): Promise<number> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}

/** POST /api/share/{path} with an upload-only body; returns the raw answer. */
export function createRequestLink(t: TestApp, token: string, encodedPath: string, body: Record<string, unknown> = {}) {
  return t.request(token, { method: 'POST', url: `/api/share${encodedPath}`, payload: { uploadOnly: true, ...body } });
}

export async function requestLink(t: TestApp, token: string, encodedPath: string, body: Record<string, unknown> = {}): Promise<Share> {
  const response = await createRequestLink(t, token, encodedPath, body);
  if (response.statusCode !== 200) throw new Error(`file request for ${encodedPath} failed: ${response.statusCode} ${response.body}`);
  return response.json() as Share;
}

/** tus requests against `/api/public/upload/{hash}` over real HTTP, as tus-js-client sends them. */
export function uploader(port: number, hash: string, headers: Record<string, string> = {}) {
  const base = `/api/public/upload/${hash}`;
  return {
    create(name: string | undefined, length: number | undefined, extra: Record<string, string> = {}): Promise<RawResponse> {
      const all: Record<string, string> = { 'tus-resumable': '1.0.0', ...headers, ...extra };
      if (name !== undefined) all['upload-metadata'] = metadataFor(name);
      if (length !== undefined) all['upload-length'] = String(length);
      return rawRequest(port, { method: 'POST', path: base, headers: all });
    },
    /** The path part of a creation's Location. */
    locationOf(response: RawResponse): string {
      const location = response.headers.location;
      if (!location) throw new Error(`no location: ${response.status} ${response.body}`);
      return location;
    },
    head(location: string): Promise<RawResponse> {
      return rawRequest(port, { method: 'HEAD', path: location, headers: { 'tus-resumable': '1.0.0', ...headers } });
    },
    patch(location: string, offset: number, body: Buffer, extra: Record<string, string | number> = {}): Promise<RawResponse> {
      return rawRequest(port, {
        method: 'PATCH',
        path: location,
        headers: { 'tus-resumable': '1.0.0', 'content-type': 'application/offset+octet-stream', 'upload-offset': offset, ...headers, ...extra },
        body,
      });
    },
    info(): Promise<RawResponse> {
      return rawRequest(port, { method: 'GET', path: base, headers });
    },
    /** Creates and sends the whole file in one PATCH; returns the PATCH answer (or the refusal). */
    async send(name: string, data: Buffer): Promise<{ created: RawResponse; patched?: RawResponse }> {
      const created = await this.create(name, data.length);
      if (created.status !== 201) return { created };
      if (data.length === 0) return { created };
      return { created, patched: await this.patch(this.locationOf(created), 0, data) };
    },
  };
}
