import { z } from 'zod';
import { Description, Guid, Name } from './common.js';

export const languageCodes = ['nl', 'en'] as const;
export const LanguageCode = z.enum(languageCodes, {
  error: 'languageCode is invalid, expected value is one of these values: nl, en.',
});
export type LanguageCode = z.infer<typeof LanguageCode>;

/** Help text and error message of a setting in one language. */
export const LocalizedContent = z.object({
  languageCode: LanguageCode,
  helpText: Description.nullable().optional(),
  errorMessage: Description.nullable().optional(),
});
export type LocalizedContent = z.infer<typeof LocalizedContent>;

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
  localizedContents: z.array(LocalizedContent).optional(),
});
export type SharedConfigurableSettingInput = z.infer<typeof SharedConfigurableSettingInput>;

/** Body of a setting update: the id names the setting. */
export const SharedConfigurableSettingUpdateInput = SharedConfigurableSettingInput.extend({ id: Guid });
export type SharedConfigurableSettingUpdateInput = z.infer<typeof SharedConfigurableSettingUpdateInput>;
