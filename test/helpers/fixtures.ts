import { afterAll, beforeAll } from 'vitest';
import { type Api, adminApi, apiBase, type Json } from './api.js';
import { type StartOptions, startServer, type TestServer } from './server.js';

export interface ServerContext {
  server: TestServer;
  /** Client acting as the bootstrap administrator. */
  admin: Api;
}

/** Starts one server for the test file (beforeAll) and stops it afterwards; the fields are set once it runs. */
export function serverPerFile(options?: StartOptions): ServerContext {
  const context = {} as ServerContext;
  beforeAll(async () => {
    context.server = await startServer(options);
    context.admin = await adminApi(context.server);
  });
  afterAll(async () => {
    await context.server?.stop();
  });
  return context;
}

/** Posts `body` to a collection as set-up for a test; throws unless the answer is 200. */
export async function created(admin: Api, collection: string, body: unknown): Promise<Json> {
  const response = await admin.post(`${apiBase}/${collection}`, { body });
  if (response.status !== 200) {
    throw new Error(`set-up POST ${collection}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body;
}

/** Names of the items of a list answer, in order. */
export function names(items: unknown): string[] {
  return (items as { name: string }[]).map((item) => item.name);
}

/** A GUID that no object has. */
export const unknownGuid = '6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5';
