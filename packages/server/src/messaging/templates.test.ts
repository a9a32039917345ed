import { describe, expect, it } from 'vitest';
import { escapeHtml, merge, renderEmail, renderSms, userMergeValues } from './templates.js';

const user = {
  id: '6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5',
  userName: 'jdoe',
  displayName: 'Jane <Doe>',
  email: 'jane@example.org',
  phoneNumber: '+31612345678',
  organization: 'Root',
  claims: [
    { type: 'given_name', value: 'Jane' },
    { type: 'family_name', value: "O'Doe" },
  ],
};

describe('merge', () => {
  it('fills <%=NAME%> fields case-insensitively, with spaces inside the brackets', () => {
    expect(merge('Hi <%=userName%>, <%= USERNAME %>!', { USERNAME: 'jdoe' })).toBe('Hi jdoe, jdoe!');
  });

  it('leaves unknown names as written and makes known fields without a value empty', () => {
    expect(merge('<%=NOPE%>|<%=EMAIL%>|', { EMAIL: undefined }, ['EMAIL'])).toBe('<%=NOPE%>||');
  });

  it('does not expand a value that looks like a merge field', () => {
    expect(merge('<%=A%>', { A: '<%=B%>', B: 'x' })).toBe('<%=B%>');
  });

  it('encodes each value with the given encoder', () => {
    expect(merge('<%=A%>', { A: 'a b' }, ['A'], encodeURIComponent)).toBe('a%20b');
  });
});

describe('renderEmail', () => {
  const link = { url: 'http://127.0.0.1:8080/runtime/ResetPassword/SetPassword?token=abc&x=1', expiresAt: new Date(0) };

  it('fills a text body with the user fields and the link, unescaped', () => {
    const template = {
      subject: 'For <%=DISPLAYNAME%>',
      body: '<%=FIRSTNAME%> <%=LASTNAME%> (<%=USERNAME%>, <%=EMAIL%>, <%=ORGANIZATION%>): <%=LINK%> until <%=EXPIRESAT%>',
      isHtml: false,
    };
    expect(renderEmail(template, userMergeValues(user, link))).toEqual({
      subject: 'For Jane <Doe>',
      text: `Jane O'Doe (jdoe, jane@example.org, Root): ${link.url} until 1970-01-01T00:00:00.000Z`,
    });
  });

  it('HTML-escapes the values in an HTML body, not the template', () => {
    const template = { subject: 'S', body: '<p>Hello <%=DISPLAYNAME%></p><a href="<%=LINK%>">go</a>', isHtml: true };
    expect(renderEmail(template, userMergeValues(user, link))).toEqual({
      subject: 'S',
      html: '<p>Hello Jane &lt;Doe&gt;</p><a href="http://127.0.0.1:8080/runtime/ResetPassword/SetPassword?token=abc&amp;x=1">go</a>',
    });
  });

  it('keeps the subject to one line', () => {
    const rendered = renderEmail({ subject: 'A <%=USERNAME%>', body: '', isHtml: false }, { USERNAME: 'x\r\nBcc: y' });
    expect(rendered.subject).toBe('A x Bcc: y');
  });

  it('uses the userName as DISPLAYNAME when there is none, and empty LINK without a link', () => {
    const values = userMergeValues({ ...user, displayName: null });
    expect(renderEmail({ subject: '<%=DISPLAYNAME%>', body: '[<%=LINK%>]', isHtml: false }, values)).toEqual({
      subject: 'jdoe',
      text: '[]',
    });
  });
});

describe('renderSms', () => {
  it('fills SMSTEXT and SMSNUMBER', () => {
    expect(renderSms('Your code is <%=SMSTEXT%> (to <%=SMSNUMBER%>)', { text: '123456', number: '+31612345678' })).toBe(
      'Your code is 123456 (to +31612345678)',
    );
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
