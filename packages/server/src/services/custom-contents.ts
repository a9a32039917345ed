import { type CustomContent, type CustomContentInput, customContentNames } from '@idsvc/shared';
import type { Db, DbOrTx } from '../db/client.js';
import { customContents } from '../db/schema/index.js';
import { notFound } from '../http/api-error.js';
import * as q from '../queries/documents.js';
import { audit } from './audit.js';
import type { WriteContext } from './write-context.js';

const label = 'custom content';

/** The document of a content that shows the page's built-in text (as seeded). */
export const emptyContent = { content: '', languageCode: null };

export function toCustomContent(row: q.DocumentRow): CustomContent {
  return {
    name: row.name,
    content: typeof row.data.content === 'string' ? row.data.content : '',
    languageCode: typeof row.data.languageCode === 'string' ? row.data.languageCode : null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The content the runtime shows in a page slot: '' when it was never set (the page's built-in text applies). */
export async function readCustomContent(db: DbOrTx, name: string): Promise<string> {
  const row = await q.findDocument(db, customContents, name);
  return row ? toCustomContent(row).content : '';
}

/**
 * The runtime pages' view contents. Each name of `customContentNames` exists from the first start; PUT changes one
 * (404 for any other name), DELETE empties it again so that the page's built-in text applies (404 likewise).
 */
export function customContentService(db: Db) {
  async function mustFind(tx: DbOrTx, name: string) {
    const row = await q.findDocument(tx, customContents, name);
    if (!row) throw notFound(`${label} ${name} does not exist; the contents are ${customContentNames.join(', ')}`);
    return row;
  }

  function write(name: string, data: Record<string, unknown>, by: WriteContext, operation: 'update' | 'delete') {
    return db.transaction(async (tx) => {
      const row = await mustFind(tx, name);
      const updated = await q.updateDocument(tx, customContents, row.id, { data });
      await audit(tx, { ...by, operation, entityType: label, entityKey: row.name, changes: data });
      return toCustomContent(updated);
    });
  }

  return {
    async get(name: string): Promise<CustomContent> {
      return toCustomContent(await mustFind(db, name));
    },

    async update(name: string, input: CustomContentInput, by: WriteContext): Promise<void> {
      await write(name, { content: input.content, languageCode: input.languageCode ?? null }, by, 'update');
    },

    /** Empties the content (the built-in text applies again); the name stays. */
    async reset(name: string, by: WriteContext): Promise<void> {
      await write(name, emptyContent, by, 'delete');
    },
  };
}

export type CustomContentService = ReturnType<typeof customContentService>;
