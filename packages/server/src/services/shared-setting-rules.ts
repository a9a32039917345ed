import {
  invalidLanguageCodeMessage,
  type LanguageCode,
  type LocalizedContent,
  type LocalizedContentInput,
  languageCodes,
  type SharedConfigurableSetting,
  type SharedConfigurableSettingInput,
} from '@idsvc/shared';
import { badRequest } from '../http/api-error.js';
import type { DocumentRow } from '../queries/documents.js';

const isLanguageCode = (code: string): code is LanguageCode => (languageCodes as readonly string[]).includes(code);

/**
 * The localized contents as stored: each in nl or en (any other code: 400 with the specification's message), at most
 * one per language.
 */
export function localizedContents(contents: readonly LocalizedContentInput[] | undefined): LocalizedContent[] {
  const seen = new Set<string>();
  return (contents ?? []).map((content, index) => {
    const field = `localizedContents.${index}.languageCode`;
    if (!isLanguageCode(content.languageCode)) {
      throw badRequest(invalidLanguageCodeMessage, [
        { field, value: content.languageCode, message: invalidLanguageCodeMessage },
      ]);
    }
    if (seen.has(content.languageCode)) {
      throw badRequest(`localizedContents holds ${content.languageCode} more than once`, [
        { field, value: content.languageCode, message: 'one entry per language' },
      ]);
    }
    seen.add(content.languageCode);
    return {
      languageCode: content.languageCode,
      helpText: content.helpText ?? null,
      errorMessage: content.errorMessage ?? null,
    };
  });
}

/** The stored document of a setting (name and id are columns). */
export function settingData(input: SharedConfigurableSettingInput): Record<string, unknown> {
  return {
    resourceKey: input.resourceKey.trim(),
    value: input.value ?? null,
    description: input.description ?? null,
    localizedContents: localizedContents(input.localizedContents),
  };
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function toSetting(row: DocumentRow): SharedConfigurableSetting {
  const contents = Array.isArray(row.data.localizedContents) ? (row.data.localizedContents as LocalizedContent[]) : [];
  return {
    id: row.id,
    name: row.name,
    resourceKey: String(row.data.resourceKey ?? ''),
    value: text(row.data.value),
    description: text(row.data.description),
    localizedContents: contents.map((c) => ({
      languageCode: c.languageCode,
      helpText: text(c.helpText),
      errorMessage: text(c.errorMessage),
    })),
  };
}

/** The fields a PATCH may name. */
export const patchableSettingFields = ['name', 'resourceKey', 'value', 'description', 'localizedContents'] as const;
