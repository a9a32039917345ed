import { describe, expect, it } from 'vitest';
import { customContentNames } from '../packages/shared/src/index.js';
import { Api, apiBase, type Json, unique } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { serverPerFile } from './helpers/fixtures.js';

const contents = `${apiBase}/customcontents`;
const ctx = serverPerFile();

describe('CustomContents_Get', () => {
  it('answers 200 with every page content, empty until set', async () => {
    for (const name of customContentNames) {
      const response = await ctx.admin.get(`${contents}/${name}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ name, content: '', languageCode: null, updatedAt: expect.any(String) });
    }
  });

  it('answers 404 for a name that is not a page content', async () => {
    expectError(await ctx.admin.get(`${contents}/${unique('nothing')}`), 404, 'not_found');
  });

  it('answers 401 without a token', async () => {
    expectError(await new Api(ctx.server.url).get(`${contents}/login.header`), 401, 'unauthorized');
  });
});

describe('CustomContents_Update', () => {
  it('replaces the content and answers 200', async () => {
    const body = { content: '<h1>Welcome to Example</h1>', languageCode: 'en' };
    const response = await ctx.admin.put(`${contents}/login.header`, { body });
    expect(response.status).toBe(200);
    const readBack = await ctx.admin.get(`${contents}/LOGIN.HEADER`);
    expect(readBack.body).toEqual({ name: 'login.header', ...body, updatedAt: expect.any(String) });
  });

  it('answers 404 for a name that is not a page content, and creates nothing', async () => {
    const name = unique('new');
    expectError(await ctx.admin.put(`${contents}/${name}`, { body: { content: 'x' } }), 404, 'not_found');
    expectError(await ctx.admin.get(`${contents}/${name}`), 404, 'not_found');
  });

  it('answers 400 without content or with a malformed language code', async () => {
    expectError(await ctx.admin.put(`${contents}/login.footer`, { body: {} }), 400, 'invalid_request');
    expectError(
      await ctx.admin.put(`${contents}/login.footer`, { body: { content: 'x', languageCode: 'not a code' } }),
      400,
      'invalid_request',
    );
  });
});

describe('CustomContents_Delete', () => {
  it('empties the content so that the built-in text applies again, and answers 200', async () => {
    await ctx.admin.put(`${contents}/logout.message`, { body: { content: 'Bye', languageCode: 'en' } });
    expect((await ctx.admin.delete(`${contents}/logout.message`)).status).toBe(200);
    const readBack = await ctx.admin.get(`${contents}/logout.message`);
    expect(readBack.body as Json).toMatchObject({ name: 'logout.message', content: '', languageCode: null });
  });

  it('answers 404 for a name that is not a page content', async () => {
    expectError(await ctx.admin.delete(`${contents}/${unique('nothing')}`), 404, 'not_found');
  });
});
