import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DeliveryError } from './delivery-error.js';
import { normalisePhoneNumber, sendSms, smsBodyFormat, smsRequestBody } from './sms.js';

const values = { number: '+31612345678', text: 'Say "hi" & go\nnow', userName: 'acct', password: 'p@ss' };

describe('smsRequestBody', () => {
  it('JSON-escapes values in a JSON template', () => {
    const body = smsRequestBody('{"to":"<%=SMSNUMBER%>","msg":"<%=SMSTEXT%>","user":"<%=USERNAME%>"}', values);
    expect(body.contentType).toBe('application/json');
    expect(JSON.parse(body.body)).toEqual({ to: '+31612345678', msg: 'Say "hi" & go\nnow', user: 'acct' });
  });

  it('URL-encodes values in a form template', () => {
    expect(smsRequestBody('to=<%=SMSNUMBER%>&text=<%=SMSTEXT%>&pw=<%=PASSWORD%>', values)).toEqual({
      contentType: 'application/x-www-form-urlencoded',
      body: 'to=%2B31612345678&text=Say%20%22hi%22%20%26%20go%0Anow&pw=p%40ss',
    });
  });

  it('inserts values as they are in a text template', () => {
    expect(smsRequestBody('SEND <%=SMSNUMBER%> <%=SMSTEXT%>', values)).toEqual({
      contentType: 'text/plain; charset=utf-8',
      body: 'SEND +31612345678 Say "hi" & go\nnow',
    });
  });

  it('posts {"to","text"} JSON without a template', () => {
    const body = smsRequestBody(null, values);
    expect(body.contentType).toBe('application/json');
    expect(JSON.parse(body.body)).toEqual({ to: '+31612345678', text: 'Say "hi" & go\nnow' });
  });
});

describe('smsBodyFormat', () => {
  it('reads a lone merge field as text, not a form', () => {
    expect(smsBodyFormat('<%=SMSTEXT%>')).toBe('text');
    expect(smsBodyFormat('[1]')).toBe('json');
    expect(smsBodyFormat('a=1&b=<%=SMSTEXT%>')).toBe('form');
  });
});

describe('normalisePhoneNumber', () => {
  it('accepts international numbers written with spaces, dashes, parentheses or 00', () => {
    expect(normalisePhoneNumber('+31 6 1234-5678')).toBe('+31612345678');
    expect(normalisePhoneNumber('0031 (6) 12345678')).toBe('+31612345678');
  });

  it('refuses national and malformed numbers', () => {
    expect(normalisePhoneNumber('0612345678')).toBeUndefined();
    expect(normalisePhoneNumber('+0612345678')).toBeUndefined();
    expect(normalisePhoneNumber('+31abc')).toBeUndefined();
    expect(normalisePhoneNumber('+1234567890123456')).toBeUndefined();
  });
});

describe('sendSms', () => {
  it('posts the filled template with basic authentication to an Http gateway', async () => {
    const received: { auth?: string; type?: string; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ auth: req.headers.authorization, type: req.headers['content-type'], body });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
      const gateway = {
        providerType: 'Http' as const,
        url,
        bodyTemplate: null,
        fileName: null,
        userName: 'u',
        password: 'p',
      };
      await sendSms(gateway, { to: '+31612345678', text: 'hello' }, { dataDir: tmpdir() });
      expect(received).toEqual([
        {
          auth: `Basic ${Buffer.from('u:p').toString('base64')}`,
          type: 'application/json',
          body: '{"to":"+31612345678","text":"hello"}',
        },
      ]);
    } finally {
      server.close();
    }
  });

  it('fails with the status when the gateway does not answer 2xx', async () => {
    const server = createServer((_req, res) => {
      res.statusCode = 503;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const gateway = {
        providerType: 'Http' as const,
        url,
        bodyTemplate: null,
        fileName: null,
        userName: null,
        password: null,
      };
      const sending = sendSms(gateway, { to: '+31612345678', text: 'x' }, { dataDir: tmpdir() });
      await expect(sending).rejects.toThrow(new DeliveryError('the SMS was not sent: the gateway answered HTTP 503'));
    } finally {
      server.close();
    }
  });

  it('appends one JSON line per message to a File gateway under the data dir', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'idsvc-sms-'));
    try {
      const gateway = {
        providerType: 'File' as const,
        url: null,
        bodyTemplate: null,
        fileName: 'sms/out.log',
        userName: null,
        password: null,
      };
      await sendSms(gateway, { to: '+31612345678', text: 'one' }, { dataDir });
      await sendSms(gateway, { to: '+4915112345678', text: 'two\nlines' }, { dataDir });
      const lines = readFileSync(path.join(dataDir, 'sms/out.log'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.map(({ to, text }) => ({ to, text }))).toEqual([
        { to: '+31612345678', text: 'one' },
        { to: '+4915112345678', text: 'two\nlines' },
      ]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a File gateway whose fileName leaves the data dir', async () => {
    const gateway = {
      providerType: 'File' as const,
      url: null,
      bodyTemplate: null,
      fileName: '../x.log',
      userName: null,
      password: null,
    };
    await expect(sendSms(gateway, { to: '+31612345678', text: 'x' }, { dataDir: tmpdir() })).rejects.toThrow(
      'the SMS was not sent: the path ../x.log must stay inside the data dir',
    );
  });
});
