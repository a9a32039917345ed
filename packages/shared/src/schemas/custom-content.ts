import { z } from 'zod';
import { IsoDateTime } from './common.js';

const maxContent = 1_048_576;

/**
 * The view contents the runtime pages show, by name: each exists from the first start (empty: the page's built-in
 * text applies) and is changed with PUT. The runtime reads them by these names.
 */
export const customContentNames = [
  'login.title',
  'login.header',
  'login.footer',
  'consent.header',
  'logout.message',
  'error.header',
  'reset.header',
  'device.header',
] as const;
export type CustomContentName = (typeof customContentNames)[number];

/** A customisable view content (page text or markup shown by the runtime). */
export const CustomContent = z.object({
  name: z.string(),
  /** Text or HTML; empty means the page's built-in content. */
  content: z.string(),
  /** Language the content is written in, when it says so (for example `en`). */
  languageCode: z.string().nullable(),
  updatedAt: IsoDateTime.nullable(),
});
export type CustomContent = z.infer<typeof CustomContent>;

export const CustomContentInput = z.object({
  content: z.string().max(maxContent, 'must be at most 1 MiB'),
  languageCode: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language code such as en or nl-NL')
    .nullable()
    .optional(),
});
export type CustomContentInput = z.infer<typeof CustomContentInput>;
