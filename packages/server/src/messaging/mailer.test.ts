import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type MailServer, openMailer } from './mailer.js';

const pickup: MailServer = {
  host: null,
  port: 25,
  enableSsl: false,
  useDefaultCredentials: false,
  userName: null,
  password: null,
  deliveryMethod: 'SpecifiedPickupDirectory',
  pickupDirectoryLocation: 'mail/pickup',
  fromAddress: 'idsvc@example.org',
};

describe('openMailer with SpecifiedPickupDirectory', () => {
  it('writes each message as an .eml file into the directory under the data dir', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'idsvc-mail-'));
    try {
      const mailer = openMailer(pickup, { dataDir, defaultFrom: 'no-reply@localhost' });
      const sent = await mailer.send({ to: 'jane@example.org', subject: 'Hello', text: 'the body' });
      const dir = path.join(dataDir, 'mail/pickup');
      expect(readdirSync(dir)).toEqual([path.basename(sent.file ?? '')]);
      const eml = readFileSync(path.join(dir, readdirSync(dir)[0]), 'utf8');
      expect(eml).toContain('From: idsvc@example.org\r\n');
      expect(eml).toContain('To: jane@example.org\r\n');
      expect(eml).toContain('Subject: Hello\r\n');
      expect(eml).toContain('\r\n\r\nthe body');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('fails with the reason when the location leaves the data dir', async () => {
    const mailer = openMailer(
      { ...pickup, pickupDirectoryLocation: '../elsewhere' },
      { dataDir: tmpdir(), defaultFrom: 'a@b.c' },
    );
    await expect(mailer.send({ to: 'jane@example.org', subject: 's', text: 't' })).rejects.toThrow(
      'the mail was not written: the path ../elsewhere must stay inside the data dir',
    );
  });
});

describe('openMailer with Network', () => {
  it('fails with the reason when nothing listens', async () => {
    const server: MailServer = { ...pickup, deliveryMethod: 'Network', host: '127.0.0.1', port: 1 };
    const mailer = openMailer(server, { dataDir: tmpdir(), defaultFrom: 'a@b.c' });
    await expect(mailer.send({ to: 'jane@example.org', subject: 's', text: 't' })).rejects.toThrow(
      /^the mail was not sent: .*ECONNREFUSED/,
    );
  });
});
