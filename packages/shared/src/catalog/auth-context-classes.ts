import { z } from 'zod';
import { AuthenticationContextMethodClass, AuthenticationContextMethodClassInput } from '../schemas/index.js';
import { statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'AuthenticationContextMethodClass';
const group = 'acmc';

export const AuthenticationContextMethodClass_GetAll = op({
  operationId: 'AuthenticationContextMethodClass_GetAll',
  method: 'GET',
  path: '/api/rest/v2/authenticationcontextmethodclass',
  summary: 'List authentication context method classes.',
  tag,
  role: 'Observer',
  list: { kind: 'list', sortable: ['methodClass', 'id', 'comparableValue'], defaultSort: 'methodClass' },
  response: z.array(AuthenticationContextMethodClass),
  statuses: statuses(),
  cli: { group, action: 'list' },
});

export const AuthenticationContextMethodClass_Create = op({
  operationId: 'AuthenticationContextMethodClass_Create',
  method: 'POST',
  path: '/api/rest/v2/authenticationcontextmethodclass',
  summary: 'Create an authentication context method class.',
  tag,
  role: 'Administrator',
  body: AuthenticationContextMethodClassInput,
  response: AuthenticationContextMethodClass,
  // The row lists no other status; an invalid body is still a 400 and a methodClass that exists a 409.
  statuses: statuses(400, 409),
  cli: { group, action: 'create' },
});

export const authContextClassOperations = [
  AuthenticationContextMethodClass_GetAll,
  AuthenticationContextMethodClass_Create,
] as const;
