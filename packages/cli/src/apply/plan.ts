import type { ApiClient } from '../client/http.js';
import { ApiCallError, CliError, exitCodes } from '../errors.js';
import { diff, type FieldChange } from './diff.js';
import type { Document } from './documents.js';
import { itemPath, type Kind } from './kinds.js';

export type Action = 'create' | 'update' | 'unchanged' | 'delete';

export interface PlanItem {
  kind: Kind;
  key: string;
  action: Action;
  /** The fields an update changes. */
  changes: FieldChange[];
  /** The document (absent for a prune). */
  doc?: Document;
  /** The object as the server has it now. */
  current?: Record<string, unknown>;
}

const base = '/api/rest/v2';
type Obj = Record<string, unknown>;

/** Checks every document against the create body's schema before anything is written (exit 6 naming each problem). */
export async function validate(docs: readonly Document[]): Promise<void> {
  const { operationsById } = await import('@idsvc/shared');
  const problems: string[] = [];
  for (const doc of docs) {
    const schema = operationsById[doc.kind.createOperation]?.body;
    const parsed = schema?.safeParse(doc.spec);
    if (parsed && !parsed.success) {
      for (const issue of parsed.error.issues) {
        problems.push(
          `${doc.source} (${doc.kind.kind} ${doc.key}): ${issue.path.join('.') || 'spec'}: ${issue.message}`,
        );
      }
    }
  }
  if (problems.length) {
    throw new CliError(
      `${problems.length} problem(s) in the documents; nothing was changed`,
      exitCodes.invalid,
      problems,
    );
  }
}

/** Every object of a kind (all pages); a 404 for an empty list is an empty list. */
export async function listAll(api: ApiClient, kind: Kind): Promise<Obj[]> {
  const out: Obj[] = [];
  for (let pageIndex = 1; ; pageIndex++) {
    let page: Obj[];
    try {
      const response = await api.call<Obj[]>('GET', `${base}${kind.list}`, { query: { pageIndex, pageSize: 1000 } });
      page = Array.isArray(response.body) ? response.body : [];
    } catch (error) {
      if (error instanceof ApiCallError && error.status === 404) break;
      throw error;
    }
    out.push(...page);
    if (page.length < 1000) break;
  }
  return out;
}

/** The server's state of the documents' objects, by GET of each where the API has one, else from the kind's list. */
async function currentOf(api: ApiClient, doc: Document, lists: Map<Kind, Promise<Obj[]>>): Promise<Obj | undefined> {
  const path = itemPath(doc.kind, doc.key);
  if (path) {
    try {
      return (await api.call<Obj>('GET', `${base}${path}`)).body;
    } catch (error) {
      if (error instanceof ApiCallError && error.status === 404) return undefined;
      throw error;
    }
  }
  let list = lists.get(doc.kind);
  if (!list) {
    list = listAll(api, doc.kind);
    lists.set(doc.kind, list);
  }
  const key = doc.key.toLowerCase();
  return (await list).find((o) => String(o[doc.kind.key]).toLowerCase() === key);
}

/** What applying the documents would do: create, update (with the fields' diff), leave, or (with prune) delete. */
export async function makePlan(api: ApiClient, docs: readonly Document[], prune: boolean): Promise<PlanItem[]> {
  const lists = new Map<Kind, Promise<Obj[]>>();
  const items: PlanItem[] = [];
  for (const doc of docs) {
    const current = await currentOf(api, doc, lists);
    if (!current) {
      items.push({ kind: doc.kind, key: doc.key, action: 'create', changes: [], doc });
      continue;
    }
    const changes = diff(doc.spec, current, doc.kind.writeOnly);
    items.push({
      kind: doc.kind,
      key: doc.key,
      action: changes.length ? 'update' : 'unchanged',
      changes,
      doc,
      current,
    });
  }
  if (prune) {
    const prunable = [...new Set(docs.map((d) => d.kind))].filter((k) => k.deletable).reverse();
    for (const kind of prunable) {
      const wanted = new Set(docs.filter((d) => d.kind === kind).map((d) => d.key.toLowerCase()));
      const keep = new Set(kind.keep.map((k) => k.toLowerCase()));
      for (const object of await listAll(api, kind)) {
        const key = String(object[kind.key]);
        if (!wanted.has(key.toLowerCase()) && !keep.has(key.toLowerCase())) {
          items.push({ kind, key, action: 'delete', changes: [], current: object });
        }
      }
    }
  }
  return items;
}
