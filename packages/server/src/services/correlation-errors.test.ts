import { describe, expect, it } from 'vitest';
import { operationOf } from './correlation-errors.js';

describe('operationOf', () => {
  it('names the operation of a static path', () => {
    expect(operationOf('GET', '/api/rest/v2/users/myprofile')).toBe('Users_Get');
    expect(operationOf('POST', '/api/rest/v2/systemsetup/cleanupsession')).toBe('SystemSetup_CleanUpSessionData');
  });

  it('prefers a static path over a parameterised one and fills parameters', () => {
    expect(operationOf('GET', '/api/rest/v2/messagequeues/.filter')).toBe('MessageQueues_GetAllFilter');
    expect(operationOf('GET', '/api/rest/v2/messagequeues/orders')).toBe('MessageQueues_GetMessageQueue');
  });

  it('tells the id operation of a same-shaped pair by a GUID segment', () => {
    expect(operationOf('GET', '/api/rest/v2/claimsets/3f2504e0-4f89-11d3-9a0c-0305e82c3301')).toBe('ClaimSets_GetById');
    expect(operationOf('GET', '/api/rest/v2/claimsets/staff')).toBe('ClaimSets_GetByName');
  });

  it('knows the operations beyond the specification', () => {
    expect(operationOf('GET', '/api/rest/v2/correlationerror/abc')).toBe('CorrelationError_Get');
    expect(operationOf('PUT', '/api/rest/v2/fieldconfiguration')).toBe('FieldConfiguration_Update');
  });

  it('answers null for a path that names no operation', () => {
    expect(operationOf('GET', '/api/rest/v2/nothing')).toBeNull();
    expect(operationOf('PATCH', '/api/rest/v2/groups')).toBeNull();
  });
});
