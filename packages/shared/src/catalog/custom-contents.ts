import { z } from 'zod';
import { CustomContent, CustomContentInput, Name } from '../schemas/index.js';
import { statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'CustomContents';
const group = 'customcontents';
const nameParams = z.object({ name: Name });

export const CustomContents_Get = op({
  operationId: 'CustomContents_Get',
  method: 'GET',
  path: '/api/rest/v2/customcontents/{name}',
  summary: 'Get a custom view content by name.',
  tag,
  role: 'Observer',
  params: nameParams,
  response: CustomContent,
  statuses: statuses(404),
  cli: { group, action: 'get' },
});

export const CustomContents_Update = op({
  operationId: 'CustomContents_Update',
  method: 'PUT',
  path: '/api/rest/v2/customcontents/{name}',
  summary: 'Replace a custom view content.',
  tag,
  role: 'Administrator',
  params: nameParams,
  body: CustomContentInput,
  statuses: statuses(404),
  cli: { group, action: 'update' },
});

export const CustomContents_Delete = op({
  operationId: 'CustomContents_Delete',
  method: 'DELETE',
  path: '/api/rest/v2/customcontents/{name}',
  summary: 'Delete a custom view content (the built-in content applies again).',
  tag,
  role: 'Administrator',
  params: nameParams,
  statuses: statuses(404),
  cli: { group, action: 'delete' },
});

export const customContentOperations = [CustomContents_Get, CustomContents_Update, CustomContents_Delete] as const;
