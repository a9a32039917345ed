import { z } from 'zod';
import { Application } from '../schemas/index.js';
import { statuses } from './helpers.js';
import { op } from './op.js';

export const Applications_GetAll = op({
  operationId: 'Applications_GetAll',
  method: 'GET',
  path: '/api/rest/v2/applications',
  summary: 'List applications.',
  tag: 'Applications',
  role: 'Observer',
  list: { kind: 'list', sortable: ['name'], defaultSort: 'name' },
  response: z.array(Application),
  statuses: statuses(),
  cli: { group: 'applications', action: 'list' },
});

export const applicationOperations = [Applications_GetAll] as const;
