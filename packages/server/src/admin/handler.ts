import type { OperationDef } from '@idsvc/shared';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { ListRequest } from '../conventions/list.js';
import type { Services } from '../services/index.js';
import type { WriteContext } from '../services/write-context.js';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives: validated input, the caller, and the services. */
export interface HandlerArgs<P = unknown, Q = unknown, B = unknown> {
  params: P;
  query: Q;
  body: B;
  /** Normalised paging/sorting/filter/attributes, for operations that list. */
  list: ListRequest;
  principal: Principal;
  services: Services;
  requestId: string;
  /** The caller as recorded in audit records. */
  by: WriteContext;
}

export type ArgsOf<O extends OperationDef> = HandlerArgs<Out<O['params']>, Out<O['query']>, Out<O['body']>>;

/** A handler returns the response body (a Listing for list operations; undefined for an empty success). */
export type Handler<O extends OperationDef = OperationDef> = (args: ArgsOf<O>) => unknown;

export interface BoundHandler {
  op: OperationDef;
  run: (args: HandlerArgs) => unknown;
  /** Not written yet: answers 501 before reading any input. */
  pending?: boolean;
}

/** Pairs an operation of the catalog with its handler, keeping the operation's input types. */
export function handle<O extends OperationDef>(op: O, run: Handler<O>): BoundHandler {
  return { op, run: run as (args: HandlerArgs) => unknown };
}
