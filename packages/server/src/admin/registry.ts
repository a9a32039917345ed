import type { OperationDef } from '@idsvc/shared';
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { authenticate, hasRole } from '../auth/bearer.js';
import { actorOf } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { project } from '../conventions/attributes.js';
import { Listing, type ListRequest, listRequest } from '../conventions/list.js';
import { pageLinks } from '../conventions/paging.js';
import { isGuid } from '../conventions/segment.js';
import { ApiError, badRequest, forbidden } from '../http/api-error.js';
import type { AppEnv } from '../http/env.js';
import type { Services } from '../services/index.js';
import type { BoundHandler } from './handler.js';

const defaultList: ListRequest = {
  page: { pageIndex: 1, pageSize: 1000 },
  sort: { field: '', descending: false },
};

function validate<S extends z.ZodType>(schema: S | undefined, value: unknown, what: string): unknown {
  if (!schema) return value;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((i) => ({ field: i.path.join('.') || what, message: i.message }));
  const first = details[0];
  throw badRequest(`invalid ${what}: ${first.field === what ? '' : `${first.field} `}${first.message}`, details);
}

async function readBody(c: Context, op: OperationDef): Promise<unknown> {
  if (!op.body) return undefined;
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('the body is not valid JSON');
  }
}

/** Key fields of list items by resource, kept by an `attributes` projection; others keep id, name, claimType. */
const projectionKeys: Record<string, string[]> = {
  Users: ['id'],
  LockedUsers: ['id'],
  Certificates: ['thumbprint'],
  MessageQueues: ['displayName'],
};

function keysOf(op: OperationDef): string[] {
  return projectionKeys[op.tag] ?? ['id', 'name', 'claimType'];
}

async function render(c: Context<AppEnv>, op: OperationDef, result: unknown): Promise<Response> {
  if (result instanceof Response) return result;
  if (result instanceof Listing) {
    const url = new URL(c.req.url);
    c.header('X-Total-Count', String(result.total));
    const link = pageLinks(url, result.request.page, result.total);
    if (link) c.header('Link', link);
    return c.json(project(result.items as object[], result.request.attributes, keysOf(op)));
  }
  if (result === undefined) return c.body(null, 200);
  return c.json(result as object);
}

type ParamReader = (c: Context<AppEnv>) => Record<string, string>;

function invoke(
  ctx: AppContext,
  services: Services,
  bound: BoundHandler,
  readParams: ParamReader = (c) => c.req.param(),
) {
  const { op } = bound;
  return async (c: Context<AppEnv>) => {
    const principal = await authenticate(ctx, c.req.header('authorization'));
    if (!hasRole(principal, op.role)) throw forbidden(`the operation ${op.operationId} needs the role ${op.role}`);
    if (bound.pending) throw new ApiError('not_implemented', `the operation ${op.operationId} is not implemented yet`);
    const query = c.req.query();
    const params = validate(op.params, readParams(c), 'path parameter');
    const parsedQuery = validate(op.query, query, 'query parameter');
    const body = validate(op.body, await readBody(c, op), 'body');
    const list = op.list ? listRequest(op.list, query) : defaultList;
    const requestId = c.get('requestId');
    const by = { actor: actorOf(principal), requestId };
    const result = await bound.run({ params, query: parsedQuery, body, list, principal, services, requestId, by });
    return render(c, op, result);
  };
}

const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
const paramCount = (path: string) => (path.match(/\{/g) ?? []).length;

/**
 * Registers one route per operation of the catalog. Static paths go before parameterised ones so that
 * `/users/myprofile` is not read as `/users/{userId}`; same-shaped pairs (`/{claimType}` and `/{id}`) share one
 * route that picks the id operation for a segment in GUID form.
 */
export function registerOperations(app: Hono<AppEnv>, ctx: AppContext, services: Services, bound: BoundHandler[]) {
  const byShape = new Map<string, BoundHandler[]>();
  for (const b of bound) {
    const shape = `${b.op.method} ${b.op.path.replace(/\{\w+\}/g, '{}')}`;
    byShape.set(shape, [...(byShape.get(shape) ?? []), b]);
  }
  const routes = [...byShape.values()].sort((a, b) => paramCount(a[0].op.path) - paramCount(b[0].op.path));
  for (const group of routes) {
    const [first, second] = group;
    if (!second) {
      app.on(first.op.method, honoPath(first.op.path), invoke(ctx, services, first));
      continue;
    }
    const byId = group.find((b) => /\{id\}$/.test(b.op.path));
    const byName = group.find((b) => b !== byId);
    if (!byId || !byName || group.length > 2) throw new Error(`ambiguous operations at ${first.op.path}`);
    const nameParam = /\{(\w+)\}$/.exec(byName.op.path)?.[1] ?? 'name';
    const segment = (c: Context<AppEnv>) => c.req.param(nameParam) ?? '';
    const idRoute = invoke(ctx, services, byId, (c) => ({ ...c.req.param(), id: segment(c) }));
    const nameRoute = invoke(ctx, services, byName);
    app.on(first.op.method, honoPath(byName.op.path), (c) => (isGuid(segment(c)) ? idRoute(c) : nameRoute(c)));
  }
}

export function notImplemented(op: OperationDef): BoundHandler {
  return { op, pending: true, run: () => undefined };
}
