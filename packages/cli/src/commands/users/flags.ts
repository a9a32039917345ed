import type { Command } from 'commander';
import { collect } from '../../catalog-commands.js';
import { UsageError } from '../../errors.js';

/** The user fields settable by flags on `users create` and `users update`. */
export function addUserFlags(command: Command, update: boolean): Command {
  command
    .option('--user-name <name>', update ? 'new user name' : 'user name (asked for on a terminal when absent)')
    .option('--email <email>', 'e-mail address (unique)')
    .option('--display-name <name>', 'display name')
    .option('--password <password>', 'password')
    .option('--password-stdin', 'read the password from stdin')
    .option('--organization <name>', update ? 'organization' : 'organization (default Root)')
    .option(
      '--group <name>',
      update ? 'the groups (replaces the list); repeatable' : 'a group; repeatable',
      collect,
      [],
    )
    .option('--claim <type=value>', 'a claim; repeatable', collect)
    .option('--phone-number <number>', 'phone number, e.g. +31612345678')
    .option('--active <bool>', 'true or false')
    .option('--force-reset-password <bool>', 'true: the password must be changed at the next sign-in')
    .option('-f, --file <file>', 'the user as JSON or YAML (- for stdin); flags override its fields')
    .option('-d, --data <json>', 'the user as JSON; flags override its fields');
  if (update) {
    command
      .option('--add-group <name>', 'add to a group; repeatable', collect)
      .option('--remove-group <name>', 'remove from a group; repeatable', collect);
  }
  return command;
}

export interface UserFlags {
  userName?: string;
  email?: string;
  displayName?: string;
  password?: string;
  passwordStdin?: boolean;
  organization?: string;
  group?: string[];
  claim?: string[];
  phoneNumber?: string;
  active?: string;
  forceResetPassword?: string;
  file?: string;
  data?: string;
  addGroup?: string[];
  removeGroup?: string[];
  sendPasswordEmail?: boolean;
}

function bool(flag: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (/^(true|yes|1)$/i.test(value)) return true;
  if (/^(false|no|0)$/i.test(value)) return false;
  throw new UsageError(`${flag} takes true or false, not ${value}`);
}

/** The user body of the flags, over the body of -f/-d. */
export async function userBody(flags: UserFlags): Promise<Record<string, unknown>> {
  const { readBody, readStdin } = await import('../../body.js');
  const base = await readBody({ file: flags.file, data: flags.data });
  if (base !== undefined && (typeof base !== 'object' || base === null || Array.isArray(base))) {
    throw new UsageError('the user body must be a JSON object');
  }
  const body: Record<string, unknown> = { ...((base as Record<string, unknown> | undefined) ?? {}) };
  const set = (key: string, value: unknown) => {
    if (value !== undefined) body[key] = value;
  };
  set('userName', flags.userName);
  set('email', flags.email);
  set('displayName', flags.displayName);
  if (flags.password !== undefined && flags.passwordStdin) throw new UsageError('give --password or --password-stdin');
  set('password', flags.passwordStdin ? (await readStdin()).split(/\r?\n/)[0] : flags.password);
  set('organization', flags.organization);
  if (flags.group?.length) body.groups = flags.group;
  if (flags.claim?.length) {
    body.claims = flags.claim.map((item) => {
      const at = item.indexOf('=');
      if (at <= 0) throw new UsageError(`--claim needs type=value, not ${item}`);
      return { type: item.slice(0, at), value: item.slice(at + 1) };
    });
  }
  set('phoneNumber', flags.phoneNumber);
  set('active', bool('--active', flags.active));
  set('forceResetPasswordAfterFirstTimeLogin', bool('--force-reset-password', flags.forceResetPassword));
  return body;
}
