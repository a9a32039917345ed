import { describe, expect, it } from 'vitest';
import { catalog, catalogExtensions } from '../packages/shared/src/index.js';
import { Api } from './helpers/api.js';
import { serverPerFile, unknownGuid } from './helpers/fixtures.js';

const context = serverPerFile();

/** The operation's path with a harmless value in each parameter. */
function probePath(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => (/id$/i.test(name) ? unknownGuid : 'no-such-object'));
}

describe('the operation catalog as served', () => {
  it('publishes an OpenAPI 3.1 document of all 138 operations and the extensions without a token', async () => {
    const response = await new Api(context.server.url).get('/api/rest/v2/openapi.json');
    expect(response.status).toBe(200);
    const document = response.body as {
      openapi: string;
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(document.openapi).toBe('3.1.0');
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => [
        op.operationId as string,
        ...((op['x-idsvc-alternatives'] as { operationId: string }[] | undefined) ?? []).map((a) => a.operationId),
      ]),
    );
    const specified = catalog.map((op) => op.operationId);
    expect(specified).toHaveLength(138);
    expect(ids.filter((id) => specified.includes(id)).sort()).toEqual([...specified].sort());
    expect(ids.sort()).toEqual([...specified, ...catalogExtensions.map((op) => op.operationId)].sort());
    expect(ids).toHaveLength(138 + catalogExtensions.length);
  });

  it('serves a readable page of the document at /api/docs', async () => {
    const response = await new Api(context.server.url).get('/api/docs');
    expect(response.status).toBe(200);
    expect(String(response.body)).toContain('Users_PostMassUser');
  });

  it('routes every operation to a handler, and none answers 501 not_implemented', async () => {
    const pending: string[] = [];
    for (const op of [...catalog, ...catalogExtensions]) {
      const response = await context.admin.request(op.method, probePath(op.path));
      const body = response.body as { error?: string; message?: string; requestId?: string };
      expect(body.message ?? '', `${op.operationId} has no route`).not.toMatch(/^no route for/);
      if (response.status === 501) {
        expect(body).toEqual({ error: 'not_implemented', message: expect.any(String), requestId: expect.any(String) });
        pending.push(op.operationId);
      }
    }
    console.log(`operations answering 501 not_implemented (${pending.length}): ${pending.join(', ') || 'none'}`);
    expect(pending).toEqual([]);
  });
});
