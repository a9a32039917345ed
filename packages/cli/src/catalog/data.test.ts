import { catalog, catalogExtensions } from '@idsvc/shared';
import { describe, expect, it } from 'vitest';
import { operations } from './data.js';
import { describeCatalog } from './describe.js';

describe('the generated catalog data', () => {
  it('matches the catalog of @idsvc/shared (regenerate: node packages/cli/scripts/generate-catalog.mjs)', () => {
    expect(operations).toEqual(describeCatalog([...catalog, ...catalogExtensions]));
  });

  it('describes path parameters, query flags, bodies and statuses', () => {
    const get = operations.find((o) => o.operationId === 'Users_Get_Existing');
    expect(get?.params).toEqual([{ name: 'userId', type: 'string', required: true, format: 'guid' }]);
    const del = operations.find((o) => o.operationId === 'Certificates_Delete');
    expect(del?.query).toEqual([
      {
        name: 'storeName',
        type: 'enum',
        required: false,
        values: ['DatabaseStore', 'CurrentUser'],
        default: 'DatabaseStore',
      },
      { name: 'forceDeleteInUse', type: 'boolean', required: false, default: false },
    ]);
    const create = operations.find((o) => o.operationId === 'Users_Post');
    expect(create?.body?.shape).toBe('object');
    expect(create?.body?.fields?.find((f) => f.name === 'userName')).toEqual({
      name: 'userName',
      type: 'string',
      required: true,
      nullable: false,
    });
    expect(create?.statuses).toEqual([200, 400, 401, 403, 409]);
  });
});
