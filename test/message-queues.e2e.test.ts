import { describe, expect, it } from 'vitest';
import { Api, apiBase, type Json, totalCount, unique } from './helpers/api.js';
import { expectError } from './helpers/expect-error.js';
import { created, serverPerFile } from './helpers/fixtures.js';

const queues = `${apiBase}/messagequeues`;
const ctx = serverPerFile();

const displayNames = (items: unknown) => (items as { displayName: string }[]).map((q) => q.displayName);

describe('MessageQueues_PostMessageQueue', () => {
  it('creates a queue and answers 200 with it', async () => {
    const body = { displayName: unique('orders'), queueName: 'orders-queue', description: 'order events' };
    const response = await ctx.admin.post(queues, { body });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(body);
    expect((await ctx.admin.get(`${queues}/${body.displayName}`)).body).toEqual(body);
  });

  it('answers 409 for a displayName that exists in another case', async () => {
    const displayName = unique('dup');
    await created(ctx.admin, 'messagequeues', { displayName, queueName: 'q' });
    expectError(
      await ctx.admin.post(queues, { body: { displayName: displayName.toUpperCase(), queueName: 'other' } }),
      409,
      'conflict',
    );
  });

  it('answers 400 without a queueName or displayName', async () => {
    expectError(await ctx.admin.post(queues, { body: { displayName: unique('q') } }), 400, 'invalid_request');
    expectError(await ctx.admin.post(queues, { body: { queueName: 'q' } }), 400, 'invalid_request');
  });
});

describe('MessageQueues_GetMessageQueue', () => {
  it('answers 404 for a queue that does not exist', async () => {
    expectError(await ctx.admin.get(`${queues}/${unique('missing')}`), 404, 'not_found');
  });
});

describe('MessageQueues_PutMessageQueue', () => {
  it('updates the queue found by displayName and answers 200 with it', async () => {
    const displayName = unique('put');
    await created(ctx.admin, 'messagequeues', { displayName, queueName: 'before' });
    const response = await ctx.admin.put(queues, { body: { displayName, queueName: 'after' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ displayName, queueName: 'after', description: null });
  });

  it('answers 404 for a queue that does not exist', async () => {
    expectError(
      await ctx.admin.put(queues, { body: { displayName: unique('nope'), queueName: 'q' } }),
      404,
      'not_found',
    );
  });

  it('answers 400 for a wrongly typed queueName', async () => {
    expectError(
      await ctx.admin.put(queues, { body: { displayName: unique('x'), queueName: ['q'] } }),
      400,
      'invalid_request',
    );
  });
});

describe('MessageQueues_GetAll', () => {
  it('lists the queues by displayName, or by queueName descending, with paging', async () => {
    const prefix = unique('list');
    await created(ctx.admin, 'messagequeues', { displayName: `${prefix}-b`, queueName: 'qa' });
    await created(ctx.admin, 'messagequeues', { displayName: `${prefix}-a`, queueName: 'qb' });
    const all = await ctx.admin.get(queues);
    expect(all.status).toBe(200);
    expect(displayNames(all.body).filter((n) => n.startsWith(prefix))).toEqual([`${prefix}-a`, `${prefix}-b`]);
    const byQueue = await ctx.admin.get(queues, { query: { sortBy: 'queueName', sortOrder: 'Descending' } });
    expect(displayNames(byQueue.body).filter((n) => n.startsWith(prefix))).toEqual([`${prefix}-a`, `${prefix}-b`]);
    const page = await ctx.admin.get(queues, { query: { pageIndex: 1, pageSize: 1 } });
    expect((page.body as unknown as Json[]).length).toBe(1);
    expect(totalCount(page)).toBe((all.body as unknown as Json[]).length);
  });

  it('answers 401 without a token', async () => {
    expectError(await new Api(ctx.server.url).get(queues), 401, 'unauthorized');
  });
});

describe('MessageQueues_GetAllFilter', () => {
  it('answers the matches, keeping the displayName when other attributes are asked for', async () => {
    const displayName = unique('filter');
    await created(ctx.admin, 'messagequeues', { displayName, queueName: `${displayName}-q` });
    const response = await ctx.admin.get(`${queues}/.filter`, {
      query: { filter: `queueName eq "${displayName}-Q"`, attributes: 'queueName' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ displayName, queueName: `${displayName}-q` }]);
  });

  it('answers 400 invalid_filter for a filter that does not parse', async () => {
    expectError(
      await ctx.admin.get(`${queues}/.filter`, { query: { filter: 'displayName zz "x"' } }),
      400,
      'invalid_filter',
    );
  });
});

describe('MessageQueues_DeleteMessageQueue', () => {
  it('deletes the queue, and answers 200 again once it is gone (spec rule 1)', async () => {
    const displayName = unique('del');
    await created(ctx.admin, 'messagequeues', { displayName, queueName: 'q' });
    expect((await ctx.admin.delete(`${queues}/${displayName}`)).status).toBe(200);
    expectError(await ctx.admin.get(`${queues}/${displayName}`), 404, 'not_found');
    expect((await ctx.admin.delete(`${queues}/${displayName}`)).status).toBe(200);
  });

  it('answers 401 without a token', async () => {
    expectError(await new Api(ctx.server.url).delete(`${queues}/x`), 401, 'unauthorized');
  });
});
