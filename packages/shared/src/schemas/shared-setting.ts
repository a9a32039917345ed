import { z } from 'zod';
import { Description, Guid, Name } from './common.js';

export const languageCodes = ['nl', 'en'] as const;

/** The answer to a localized content in any other language (the specification's wording). */
export const invalidLanguageCodeMessage = 'languageCode is invalid, expected value is one of these values: nl, en';

export const LanguageCode = z.enum(languageCodes, { error: invalidLanguageCodeMessage });
export type LanguageCode = z.infer<typeof LanguageCode>;

/** Help text and error message of a setting in one language. */
export const LocalizedContent = z.object({
  languageCode: LanguageCode,
  helpText: z.string().nullable(),
  errorMessage: z.string().nullable(),
});
export type LocalizedContent = z.infer<typeof LocalizedContent>;

/**
 * A localized content as sent. The language code is checked by the service rather than here, so that any other
 * value is answered with exactly `invalidLanguageCodeMessage`.
 */
export const LocalizedContentInput = z.object({
  languageCode: z.string().max(64, 'must be at most 64 characters').describe('nl or en'),
  helpText: Description.nullable().optional(),
  errorMessage: Description.nullable().optional(),
});
export type LocalizedContentInput = z.infer<typeof LocalizedContentInput>;

export const SharedConfigurableSetting = z.object({
  id: Guid,
  name: z.string(),
  resourceKey: z.string(),
  value: z.string().nullable(),
  description: z.string().nullable(),
  localizedContents: z.array(LocalizedContent),
});
export type SharedConfigurableSetting = z.infer<typeof SharedConfigurableSetting>;

export const SharedConfigurableSettingInput = z.object({
  id: Guid.optional(),
  name: Name,
  resourceKey: Name,
  value: z.string().max(8192, 'must be at most 8192 characters').nullable().optional(),
  description: Description.nullable().optional(),
  localizedContents: z.array(LocalizedContentInput).max(16, 'must hold at most 16 entries').optional(),
});
export type SharedConfigurableSettingInput = z.infer<typeof SharedConfigurableSettingInput>;

/** Body of a setting update: the id names the setting. */
export const SharedConfigurableSettingUpdateInput = SharedConfigurableSettingInput.extend({ id: Guid });
export type SharedConfigurableSettingUpdateInput = z.infer<typeof SharedConfigurableSettingUpdateInput>;
