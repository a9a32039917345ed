import { describe, expect, it } from 'vitest';
import { catalogExtensions } from './extensions.js';
import { catalog } from './index.js';

describe('catalog extensions', () => {
  it('adds the field configuration and correlation error operations', () => {
    expect(catalogExtensions.map((op) => `${op.operationId} ${op.method} ${op.path}`)).toEqual([
      'FieldConfiguration_GetAll GET /api/rest/v2/fieldconfiguration',
      'FieldConfiguration_Get GET /api/rest/v2/fieldconfiguration/{fieldName}',
      'FieldConfiguration_Create POST /api/rest/v2/fieldconfiguration',
      'FieldConfiguration_Update PUT /api/rest/v2/fieldconfiguration',
      'FieldConfiguration_Delete DELETE /api/rest/v2/fieldconfiguration/{fieldName}',
      'CorrelationError_GetAll GET /api/rest/v2/correlationerror',
      'CorrelationError_Get GET /api/rest/v2/correlationerror/{correlationId}',
    ]);
  });

  it('shares no operationId, method and path, or command with the catalog', () => {
    const all = [...catalog, ...catalogExtensions];
    expect(new Set(all.map((op) => op.operationId)).size).toBe(all.length);
    expect(new Set(all.map((op) => `${op.method} ${op.path}`)).size).toBe(all.length);
    expect(new Set(all.map((op) => `${op.cli.group} ${op.cli.action}`)).size).toBe(all.length);
  });

  it('lets Observer read and Administrator write', () => {
    for (const op of catalogExtensions) expect(op.role).toBe(op.method === 'GET' ? 'Observer' : 'Administrator');
  });
});
