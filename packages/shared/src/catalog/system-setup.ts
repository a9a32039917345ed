import { License, SessionCleanUpInput, SessionCleanUpResult, SystemSetup, SystemSetupInput } from '../schemas/index.js';
import { statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'SystemSetup';
const group = 'systemsetup';

export const SystemSetup_GetSystemSetup = op({
  operationId: 'SystemSetup_GetSystemSetup',
  method: 'GET',
  path: '/api/rest/v2/systemsetup',
  summary: 'Get the system setup (iframe and CORS domains and other global settings).',
  tag,
  role: 'Observer',
  response: SystemSetup,
  statuses: statuses(),
  cli: { group, action: 'get' },
});

export const SystemSetup_PutSystemSetup = op({
  operationId: 'SystemSetup_PutSystemSetup',
  method: 'PUT',
  path: '/api/rest/v2/systemsetup',
  summary: 'Update the system setup.',
  tag,
  role: 'Administrator',
  body: SystemSetupInput,
  response: SystemSetup,
  statuses: statuses(400),
  cli: { group, action: 'update' },
});

export const SystemSetup_CleanUpSessionData = op({
  operationId: 'SystemSetup_CleanUpSessionData',
  method: 'POST',
  path: '/api/rest/v2/systemsetup/cleanupsession',
  summary: 'Remove session data (sessions, codes, tokens; by default only what expired) and count what was removed.',
  tag,
  role: 'Administrator',
  body: SessionCleanUpInput,
  response: SessionCleanUpResult,
  statuses: statuses(400),
  cli: { group, action: 'cleanup-sessions' },
});

export const SystemSetup_GetLicense = op({
  operationId: 'SystemSetup_GetLicense',
  method: 'GET',
  path: '/api/rest/v2/systemsetup/license',
  summary: 'Get the license.',
  tag,
  role: 'Observer',
  response: License,
  statuses: statuses(),
  cli: { group, action: 'license' },
});

export const systemSetupOperations = [
  SystemSetup_GetSystemSetup,
  SystemSetup_PutSystemSetup,
  SystemSetup_CleanUpSessionData,
  SystemSetup_GetLicense,
] as const;
