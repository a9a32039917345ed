import { Command } from 'commander';
import { contextOf } from '../../context.js';
import { UsageError } from '../../errors.js';

interface LoginOptions {
  username?: string;
  password?: string;
  passwordStdin?: boolean;
  clientId?: string;
  clientSecret?: string;
  clientSecretStdin?: boolean;
  device?: boolean;
}

/** `idsvc login`: password, client credentials or device code; saves a profile (never a password or secret). */
export function loginCommand(): Command {
  return new Command('login')
    .description('sign in and save a profile (URL, client id and refresh token; never a password)')
    .option('-u, --username <name>', 'user name (password grant)')
    .option('-p, --password <password>', 'password (asked for on a terminal when absent)')
    .option('--password-stdin', 'read the password from stdin')
    .option('--client-id <id>', 'confidential client id (client credentials grant)')
    .option('--client-secret <secret>', 'client secret (or IDSVC_CLIENT_SECRET, or asked for on a terminal)')
    .option('--client-secret-stdin', 'read the client secret from stdin')
    .option('--device', 'sign in with a browser elsewhere (device code, RFC 8628)')
    .addHelpText(
      'after',
      `
The profile is named by --profile (default "default") and becomes the current one. It is stored in
$XDG_CONFIG_HOME/idsvc/config.json (else ~/.config/idsvc/config.json), mode 0600. Access tokens are refreshed
silently. A client-credentials profile keeps no secret: when its token expires, log in again or set
IDSVC_CLIENT_SECRET. Pipelines can skip login: IDSVC_TOKEN, or IDSVC_CLIENT_ID with IDSVC_CLIENT_SECRET.

Examples:
  idsvc login --url https://id.example.com -u admin
  echo "$PASSWORD" | idsvc login -u admin --password-stdin
  idsvc login --client-id deploy-bot --client-secret-stdin < secret.txt
  idsvc login --device`,
    )
    .action(async (options: LoginOptions, cmd: Command) => {
      const modes = [options.device, options.clientId !== undefined, options.username !== undefined].filter(Boolean);
      if (modes.length > 1) throw new UsageError('give one of --username, --client-id or --device');
      if (options.passwordStdin && options.password !== undefined) {
        throw new UsageError('give --password or --password-stdin, not both');
      }
      const ctx = contextOf(cmd);
      const { login } = await import('./login-flow.js');
      await login(ctx, options);
    });
}

export type { LoginOptions };
