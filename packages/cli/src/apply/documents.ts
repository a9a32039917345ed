import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readTextFile } from '../body.js';
import { UsageError } from '../errors.js';
import { type Kind, kindNamed, kinds } from './kinds.js';

/** One object the documents ask for. */
export interface Document {
  kind: Kind;
  key: string;
  spec: Record<string, unknown>;
  /** `file` or `file#n` (the n-th document of the file), for messages. */
  source: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The .json, .yaml and .yml files of a folder and its subfolders, sorted by path. */
async function filesOf(path: string): Promise<string[]> {
  if (path === '-') return ['-'];
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    throw new UsageError(`cannot read ${path}: no such file or folder`);
  }
  if (!info.isDirectory()) return [path];
  const out: string[] = [];
  for (const entry of (await readdir(path, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) out.push(...(await filesOf(full)));
    else if (/\.(json|ya?ml)$/i.test(entry.name)) out.push(full);
  }
  return out;
}

/** The values of a file: every YAML document (JSON is YAML too); a list is a list of documents. */
async function valuesOf(file: string): Promise<{ value: unknown; source: string }[]> {
  const text = await readTextFile(file);
  const name = file === '-' ? 'stdin' : file;
  const YAML = await import('yaml');
  const docs = YAML.parseAllDocuments(text);
  const out: { value: unknown; source: string }[] = [];
  const list = Array.isArray(docs) ? docs : [docs];
  list.forEach((doc, i) => {
    if (doc.errors.length) {
      const e = doc.errors[0];
      throw new UsageError(`${name}: ${e.message.split('\n')[0]}`);
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) return;
    const items = Array.isArray(value) ? value : [value];
    items.forEach((item, j) => {
      const n = list.length > 1 || items.length > 1 ? `#${list.length > 1 ? i + 1 : j + 1}` : '';
      out.push({ value: item, source: `${name}${n}` });
    });
  });
  return out;
}

/**
 * Reads `{kind, spec}` documents from files and folders (`-` for stdin). With `defaultKind`, an object without a
 * `kind` is a spec of that kind. Unknown kinds, missing keys and the same object twice are usage errors.
 */
export async function loadDocuments(paths: readonly string[], defaultKind?: Kind): Promise<Document[]> {
  const docs: Document[] = [];
  const seen = new Map<string, string>();
  for (const path of paths) {
    for (const file of await filesOf(path)) {
      for (const { value, source } of await valuesOf(file)) {
        if (!isObject(value)) throw new UsageError(`${source}: a document must be an object {kind, spec}`);
        let kind: Kind | undefined;
        let spec: unknown;
        if (typeof value.kind === 'string') {
          kind = kindNamed(value.kind);
          if (!kind) {
            throw new UsageError(`${source}: unknown kind ${value.kind}`, [
              `kinds: ${kinds.map((k) => k.kind).join(', ')}`,
            ]);
          }
          spec = value.spec;
        } else if (defaultKind) {
          kind = defaultKind;
          spec = 'spec' in value ? value.spec : value;
        } else {
          throw new UsageError(`${source}: a document needs a kind`, [`kinds: ${kinds.map((k) => k.kind).join(', ')}`]);
        }
        if (defaultKind && kind !== defaultKind)
          throw new UsageError(`${source}: only ${defaultKind.kind} documents here`);
        if (!isObject(spec)) throw new UsageError(`${source}: spec must be an object`);
        const key = spec[kind.key];
        if (typeof key !== 'string' || key.trim() === '')
          throw new UsageError(`${source}: spec.${kind.key} is required`);
        const id = `${kind.kind}/${key.toLowerCase()}`;
        const earlier = seen.get(id);
        if (earlier) throw new UsageError(`${kind.kind} ${key} is in ${earlier} and in ${source}`);
        seen.set(id, source);
        docs.push({ kind, key, spec, source });
      }
    }
  }
  if (docs.length === 0) throw new UsageError('no documents found');
  return order(docs);
}

/** Documents in the order of `kinds`, and within a kind each after the objects it needs (parents first). */
export function order(docs: Document[]): Document[] {
  const out: Document[] = [];
  for (const kind of kinds) {
    const ofKind = docs.filter((d) => d.kind === kind);
    const byKey = new Map(ofKind.map((d) => [d.key.toLowerCase(), d]));
    const placed = new Set<Document>();
    const visiting = new Set<Document>();
    const visit = (doc: Document) => {
      if (placed.has(doc)) return;
      if (visiting.has(doc)) throw new UsageError(`${kind.kind} ${doc.key} depends on itself (a cycle)`);
      visiting.add(doc);
      for (const need of kind.needs?.(doc.spec) ?? []) {
        const other = byKey.get(need.toLowerCase());
        if (other) visit(other);
      }
      visiting.delete(doc);
      placed.add(doc);
      out.push(doc);
    };
    for (const doc of ofKind) visit(doc);
  }
  return out;
}
