import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { firstValue, queryValue } from './query.js';

describe('firstValue', () => {
  it('takes a string, or the first of a repeated parameter', () => {
    expect(firstValue('a')).toBe('a');
    expect(firstValue(['a', 'b'])).toBe('a');
    expect(firstValue('')).toBe('');
  });

  it('is undefined for anything that is not a string', () => {
    for (const value of [undefined, null, 1, {}, [], [1, 'a']]) expect(firstValue(value)).toBeUndefined();
  });
});

describe('queryValue', () => {
  it('reads the parsed query of a request', () => {
    const request = { query: { inline: 'true', files: ['a', 'b'] } };
    expect(queryValue(request, 'inline')).toBe('true');
    expect(queryValue(request, 'files')).toBe('a');
    expect(queryValue(request, 'algo')).toBeUndefined();
    expect(queryValue({ query: undefined }, 'inline')).toBeUndefined();
  });

  it('never reads inherited properties', () => {
    expect(queryValue({ query: {} }, 'toString')).toBeUndefined();
    expect(queryValue({ query: {} }, '__proto__')).toBeUndefined();
  });

  it('gets decoded values from the server query parser', async () => {
    const app = Fastify();
    app.get('/q', async (request) => ({ auth: queryValue(request, 'auth') ?? null, name: queryValue(request, 'name') ?? null }));
    const response = await app.inject({ url: '/q?%61uth=x.y.z&name=a+b%2Bc&name=second' });
    expect(response.json()).toEqual({ auth: 'x.y.z', name: 'a b+c' });
    await app.close();
  });
});
