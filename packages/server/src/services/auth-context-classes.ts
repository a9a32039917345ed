import type { AuthenticationContextMethodClass, AuthenticationContextMethodClassInput } from '@idsvc/shared';
import type { Db } from '../db/client.js';
import { authContextClasses } from '../db/schema/index.js';
import { type DocumentResource, documentService } from './documents.js';

/** Authentication context method classes: the methodClass is the key (unique, case-insensitively), with an id. */
export const authContextClassResource: DocumentResource<
  AuthenticationContextMethodClass,
  AuthenticationContextMethodClassInput
> = {
  table: authContextClasses,
  label: 'authentication context method class',
  keyField: 'methodClass',
  fields: { methodClass: { type: 'string' }, id: { type: 'string' }, comparableValue: { type: 'number' } },
  keyOf: (input) => input.methodClass.trim(),
  idOf: (input) => input.id,
  toData: (input) => ({ comparableValue: input.comparableValue }),
  toApi: (row) => ({ id: row.id, methodClass: row.name, comparableValue: Number(row.data.comparableValue ?? 0) }),
};

export function authContextClassService(db: Db) {
  return documentService(db, authContextClassResource);
}

export type AuthContextClassService = ReturnType<typeof authContextClassService>;
