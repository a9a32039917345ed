import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { catalog, operationsById } from './index.js';

const vendoredTsv = fileURLToPath(new URL('../../spec/operations.tsv', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const specTsv = `${repoRoot}../shared/spec/operations.tsv`;

function readRows(file: string): { operationId: string; method: string; path: string }[] {
  const lines = readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
  expect(lines[0]).toBe('operationId\tmethod\tpath');
  return lines.slice(1).map((line) => {
    const [operationId, method, path] = line.split('\t');
    return { operationId, method, path };
  });
}

const pathParams = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
const shapeOf = (op: { method: string; path: string }) => `${op.method} ${op.path.replace(/\{[^}]+\}/g, '{}')}`;

describe('operation catalog', () => {
  it('holds exactly the 138 operations of operations.tsv, in its order', () => {
    const rows = readRows(vendoredTsv);
    expect(rows).toHaveLength(138);
    expect(catalog.map(({ operationId, method, path }) => ({ operationId, method, path }))).toEqual(rows);
  });

  it.skipIf(!existsSync(specTsv))('vendors an identical copy of the specification operations.tsv', () => {
    expect(readFileSync(vendoredTsv, 'utf8')).toBe(readFileSync(specTsv, 'utf8'));
  });

  it('has unique operationIds and indexes each by id', () => {
    const ids = catalog.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(138);
    expect(Object.keys(operationsById)).toEqual(ids);
    for (const op of catalog) expect(operationsById[op.operationId]).toBe(op);
  });

  it('has unique method and path pairs', () => {
    expect(new Set(catalog.map((op) => `${op.method} ${op.path}`)).size).toBe(138);
  });

  it('shares a path shape only between the GUID-or-name pairs of claim definitions and claim sets', () => {
    const byShape = new Map<string, string[]>();
    for (const op of catalog) byShape.set(shapeOf(op), [...(byShape.get(shapeOf(op)) ?? []), op.operationId]);
    const collisions = [...byShape.values()].filter((ids) => ids.length > 1).map((ids) => [...ids].sort());
    expect(collisions.sort()).toEqual(
      [
        ['ClaimDefinitions_DeleteByClaimType', 'ClaimDefinitions_DeleteById'],
        ['ClaimDefinitions_GetByClaimType', 'ClaimDefinitions_GetById'],
        ['ClaimSets_DeleteById', 'ClaimSets_DeleteByName'],
        ['ClaimSets_GetById', 'ClaimSets_GetByName'],
      ].sort(),
    );
  });

  it('gives every operation a unique CLI group and action', () => {
    const commands = catalog.map((op) => `${op.cli.group} ${op.cli.action}`);
    expect(new Set(commands).size).toBe(138);
    for (const op of catalog) {
      expect(op.cli.group).toMatch(/^[a-z]+$/);
      expect(op.cli.action).toMatch(/^[a-z]+(-[a-z]+)*$/);
    }
    expect(operationsById.Users_GetAllLockedUsers.cli).toEqual({ group: 'lockedusers', action: 'list' });
    expect(operationsById.Users_Patch.cli).toEqual({ group: 'lockedusers', action: 'unlock' });
    expect(operationsById.Users_Get.cli).toEqual({ group: 'users', action: 'myprofile' });
  });

  it('declares exactly the path parameters of each path', () => {
    for (const op of catalog) {
      const declared = op.params ? Object.keys(op.params.shape).sort() : [];
      expect({ op: op.operationId, params: declared }).toEqual({ op: op.operationId, params: pathParams(op.path) });
    }
  });

  it('sorts every list by a default that is one of its sortable fields', () => {
    const lists = catalog.filter((op) => op.list);
    expect(lists).toHaveLength(27);
    for (const op of lists) {
      expect(op.list?.sortable).toContain(op.list?.defaultSort);
      expect(op.list?.kind).toBe(op.path.endsWith('/.filter') ? 'filter' : 'list');
    }
    expect(operationsById.Users_GetAll.list).toEqual({
      kind: 'list',
      sortable: [
        'userName',
        'displayName',
        'active',
        'groups',
        'organization',
        'forceResetPasswordAfterFirstTimeLogin',
      ],
      defaultSort: 'userName',
    });
    expect(operationsById.ClaimSets_GetAll.list).toEqual({
      kind: 'list',
      sortable: ['name', 'id'],
      defaultSort: 'name',
    });
  });

  it('lets Observer call every GET, User only its own profile, and Administrator everything else', () => {
    for (const op of catalog) {
      const expected = op.operationId === 'Users_Get' ? 'User' : op.method === 'GET' ? 'Observer' : 'Administrator';
      expect({ op: op.operationId, role: op.role }).toEqual({ op: op.operationId, role: expected });
    }
  });

  it('lists 200 and 401 for every operation and 403 except where the spec lists none', () => {
    const without403 = catalog.filter((op) => !op.statuses.includes(403)).map((op) => op.operationId);
    expect(without403).toEqual(['SharedConfigurableSettings_Create', 'SharedConfigurableSettings_Update']);
    for (const op of catalog) {
      expect(op.statuses).toContain(200);
      expect(op.statuses).toContain(401);
    }
  });

  it('answers duplicated input in batch user operations with 409, never 500', () => {
    for (const id of ['Users_DeleteMassUser', 'Users_PostMassUser', 'Users_PutMassUser', 'Users_PutMassStatus']) {
      expect(operationsById[id].statuses).toContain(409);
      expect(operationsById[id].statuses).not.toContain(500);
    }
    expect(operationsById.Users_PutMassStatus.statuses).toEqual([200, 400, 401, 403, 404, 409]);
  });

  it('parses query values that arrive as URL strings', () => {
    expect(operationsById.Certificates_Delete.query?.parse({})).toEqual({
      storeName: 'DatabaseStore',
      forceDeleteInUse: false,
    });
    expect(
      operationsById.Certificates_Delete.query?.parse({ forceDeleteInUse: 'true', storeName: 'CurrentUser' }),
    ).toEqual({ storeName: 'CurrentUser', forceDeleteInUse: true });
    expect(operationsById.Certificates_GetAll.query?.safeParse({ storeName: 'Nowhere' }).success).toBe(false);
    expect(operationsById.Users_ResetAuthenticator.query?.safeParse({ userId: crypto.randomUUID() }).success).toBe(
      false,
    );
  });
});
