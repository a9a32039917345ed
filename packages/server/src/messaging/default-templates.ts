import { defaultSmsOtpTemplateName } from '@idsvc/shared';

/** Name of the e-mail template of password-reset and set-password mails. */
export const RESET_PASSWORD_TEMPLATE = 'ResetPassword';
/** Name of the e-mail template of offboarding mails. */
export const OFFBOARD_TEMPLATE = 'Offboard';
export const DEFAULT_SMS_OTP_TEMPLATE = defaultSmsOtpTemplateName;

/** Documents of the templates created at first start (the `data` of their rows; the key is the name). */
export const seededEmailTemplates: ReadonlyArray<{ name: string; data: Record<string, unknown> }> = [
  {
    name: RESET_PASSWORD_TEMPLATE,
    data: {
      resourceKey: RESET_PASSWORD_TEMPLATE,
      subject: 'Set your password',
      isHtml: false,
      body: [
        'Hello <%=DISPLAYNAME%>,',
        '',
        'Open this link to set a new password for your account <%=USERNAME%>:',
        '',
        '<%=LINK%>',
        '',
        'The link works once and expires at <%=EXPIRESAT%>. If you did not ask for it, you can ignore this message.',
        '',
      ].join('\n'),
    },
  },
  {
    name: OFFBOARD_TEMPLATE,
    data: {
      resourceKey: OFFBOARD_TEMPLATE,
      subject: 'Confirm closing your account',
      isHtml: false,
      body: [
        'Hello <%=DISPLAYNAME%>,',
        '',
        'Open this link to confirm that your account <%=USERNAME%> is to be closed:',
        '',
        '<%=LINK%>',
        '',
        'The link works once and expires at <%=EXPIRESAT%>.',
        '',
      ].join('\n'),
    },
  },
];

export const seededSmsTemplates: ReadonlyArray<{ name: string; data: Record<string, unknown> }> = [
  { name: DEFAULT_SMS_OTP_TEMPLATE, data: { content: 'Your code is <%=SMSTEXT%>' } },
];
