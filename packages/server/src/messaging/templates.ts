/**
 * Merge fields of e-mail and SMS templates. One syntax for both, the specification's: `<%=NAME%>` (spaces inside
 * the brackets allowed, names compared case-insensitively). A known field without a value becomes empty; an
 * unknown name is left as written, so a misspelt field shows in the message instead of vanishing.
 */

/** The merge fields of e-mail templates, with what each holds: the one list of them. */
export const emailMergeFields = {
  USERID: "the user's id",
  USERNAME: "the user's userName",
  DISPLAYNAME: "the user's displayName (the userName when there is none)",
  FIRSTNAME: "the user's given_name claim",
  LASTNAME: "the user's family_name claim",
  EMAIL: "the user's e-mail address",
  PHONENUMBER: "the user's phone number",
  ORGANIZATION: "the name of the user's organization",
  LINK: 'the one-time link of a password reset, a set-password mail or an offboarding (empty elsewhere)',
  EXPIRESAT: 'when that link expires (ISO 8601, UTC)',
} as const;

export type EmailMergeField = keyof typeof emailMergeFields;
export type EmailMergeValues = Partial<Record<EmailMergeField, string | null | undefined>>;

/** The merge fields of SMS templates (the specification's). */
export const smsMergeFields = {
  SMSTEXT: 'the text of the message: the one-time code of an OTP message',
  SMSNUMBER: 'the destination phone number',
} as const;

export type SmsMergeField = keyof typeof smsMergeFields;

/** The merge fields of an Http SMS gateway's bodyTemplate (the request body posted to its url). */
export const smsGatewayBodyFields = {
  SMSNUMBER: 'the destination phone number, international form (+31612345678)',
  SMSTEXT: 'the whole text of the message',
  USERNAME: "the gateway's userName",
  PASSWORD: "the gateway's password",
} as const;

const fieldPattern = /<%=\s*([A-Za-z][A-Za-z0-9_]*)\s*%>/g;

/**
 * Replaces each `<%=NAME%>` whose name is among `known` by its value, passed through `encode` (identity by default).
 * Values are inserted once: a value that itself looks like a merge field is not expanded again.
 */
export function merge(
  template: string,
  values: Record<string, string | null | undefined>,
  known: readonly string[] = Object.keys(values),
  encode: (value: string) => string = (v) => v,
): string {
  const names = new Set(known.map((k) => k.toUpperCase()));
  const upper = new Map(Object.entries(values).map(([k, v]) => [k.toUpperCase(), v]));
  return template.replace(fieldPattern, (whole, name: string) => {
    const key = name.toUpperCase();
    if (!names.has(key)) return whole;
    return encode(upper.get(key) ?? '');
  });
}

const htmlEntities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => htmlEntities[c]);
}

export interface EmailTemplateText {
  subject: string;
  body: string;
  isHtml: boolean;
}

export interface RenderedEmail {
  subject: string;
  text?: string;
  html?: string;
}

const emailFieldNames = Object.keys(emailMergeFields);

/** Fills an e-mail template: values HTML-escaped in an HTML body; the subject kept to one line. */
export function renderEmail(template: EmailTemplateText, values: EmailMergeValues): RenderedEmail {
  const subject = merge(template.subject, values, emailFieldNames)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  if (template.isHtml) return { subject, html: merge(template.body, values, emailFieldNames, escapeHtml) };
  return { subject, text: merge(template.body, values, emailFieldNames) };
}

/** Fills an SMS template with the message text and the destination number. */
export function renderSms(content: string, values: { text: string; number: string }): string {
  return merge(content, { SMSTEXT: values.text, SMSNUMBER: values.number }, Object.keys(smsMergeFields));
}

/** What a user contributes to the merge fields. */
export interface MergeUser {
  id: string;
  userName: string;
  displayName: string | null;
  email: string | null;
  phoneNumber: string | null;
  organization: string;
  claims: ReadonlyArray<{ type: string; value: string }>;
}

export function userMergeValues(user: MergeUser, link?: { url: string; expiresAt: Date }): EmailMergeValues {
  const claim = (type: string) => user.claims.find((c) => c.type === type)?.value;
  return {
    USERID: user.id,
    USERNAME: user.userName,
    DISPLAYNAME: user.displayName || user.userName,
    FIRSTNAME: claim('given_name'),
    LASTNAME: claim('family_name'),
    EMAIL: user.email,
    PHONENUMBER: user.phoneNumber,
    ORGANIZATION: user.organization,
    LINK: link?.url,
    EXPIRESAT: link?.expiresAt.toISOString(),
  };
}
