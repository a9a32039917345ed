import { describe, expect, it } from 'vitest';
import { Api, apiBase, type Json, totalCount, unique } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { serverPerFile } from './helpers/fixtures.js';

const errors = `${apiBase}/correlationerror`;
const ctx = serverPerFile();

describe('CorrelationError_Get', () => {
  it('answers 200 with what the server told the caller of an error, found by its requestId', async () => {
    const group = unique('missing');
    const failed = await ctx.admin.get(`${apiBase}/groups/${group}`, { query: { secret: 'do-not-keep' } });
    expect(failed.status).toBe(404);
    const { requestId, message } = failed.body as { requestId: string; message: string };
    expect(failed.headers.get('x-request-id')).toBe(requestId);
    const response = await ctx.admin.get(`${errors}/${requestId}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      correlationId: requestId,
      occurredAt: expect.any(String),
      method: 'GET',
      path: `${apiBase}/groups/${group}`,
      operationId: 'Groups_GetGroup',
      status: 404,
      error: 'not_found',
      message,
    });
    expect(Math.abs(Date.parse((response.body as Json).occurredAt as string) - Date.now())).toBeLessThan(60_000);
  });

  it('records invalid bodies under a correlation id the caller chose', async () => {
    const id = unique('corr-400-');
    await ctx.admin.post(`${apiBase}/groups`, { headers: { 'x-request-id': id }, rawBody: '{' });
    const { status, error, operationId } = (await ctx.admin.get(`${errors}/${id}`)).body as Json;
    expect({ status, error, operationId }).toEqual({
      status: 400,
      error: 'invalid_request',
      operationId: 'Groups_PostGroup',
    });
  });

  it('records nothing for unauthenticated calls, so that anonymous traffic cannot make the server write', async () => {
    const refused = unique('corr-401-');
    await new Api(ctx.server.url).get(`${apiBase}/groups`, { headers: { 'x-request-id': refused } });
    const unknownRoute = unique('corr-route-');
    await new Api(ctx.server.url).get(`${apiBase}/nothing/here`, { headers: { 'x-request-id': unknownRoute } });
    expectError(await ctx.admin.get(`${errors}/${refused}`), 404, 'not_found');
    expectError(await ctx.admin.get(`${errors}/${unknownRoute}`), 404, 'not_found');
  });

  it('answers 404 for a correlation id under which nothing was recorded', async () => {
    expectError(await ctx.admin.get(`${errors}/${unique('never')}`), 404, 'not_found');
  });

  it('answers 401 without a token', async () => {
    expectError(await new Api(ctx.server.url).get(`${errors}/x`), 401, 'unauthorized');
  });
});

describe('CorrelationError_GetAll', () => {
  it('lists the recorded errors, the latest first when sorted descending', async () => {
    const id = unique('corr-latest-');
    await ctx.admin.get(`${apiBase}/groups/${unique('nope')}`, { headers: { 'x-request-id': id } });
    const response = await ctx.admin.get(errors, { query: { sortBy: 'occurredAt', sortOrder: 'Descending' } });
    expect(response.status).toBe(200);
    const list = response.body as unknown as Json[];
    expect(list[0]).toMatchObject({ correlationId: id, status: 404 });
    expect(totalCount(response)).toBe(list.length);
    const times = list.map((e) => Date.parse(e.occurredAt as string));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const byStatus = await ctx.admin.get(errors, { query: { sortBy: 'status' } });
    const statuses = (byStatus.body as unknown as Json[]).map((e) => e.status as number);
    expect(statuses).toEqual([...statuses].sort((a, b) => a - b));
  });

  it('answers 401 without a token', async () => {
    expectError(await new Api(ctx.server.url).get(errors), 401, 'unauthorized');
  });
});
