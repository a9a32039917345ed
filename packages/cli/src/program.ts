import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { catalogGroups } from './catalog-commands.js';
import { apiCommand } from './commands/api.js';
import { applyCommand } from './commands/apply.js';
import { loginCommand } from './commands/auth/login.js';
import { logoutCommand } from './commands/auth/logout.js';
import { profilesCommand } from './commands/auth/profiles.js';
import { whoamiCommand } from './commands/auth/whoami.js';
import { completionCommand } from './commands/completion.js';
import { handMade } from './commands/hand-made.js';
import { opsCommand } from './commands/ops.js';
import { serveCommand } from './commands/serve.js';
import { loadColors } from './output/colors.js';
import { formats } from './output/options.js';

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Settings every command shares: usage errors exit 2 (commander's own exit is overridden), help after errors. */
function configure(command: Command): void {
  command.exitOverride().showHelpAfterError('(add --help for usage)');
  command.configureHelp({ sortSubcommands: false, showGlobalOptions: true });
  for (const sub of command.commands) configure(sub);
}

/** The `idsvc` program: global options (DESIGN 1.7), hand-made commands, and one command per catalog operation. */
export function buildProgram(): Command {
  const program = new Command('idsvc')
    .description('idsvc: identity and access service, and its admin tool')
    .version(version(), '-V, --version')
    .option('--url <url>', "server address (env IDSVC_URL; default the profile's, else http://127.0.0.1:8080)")
    .option('--token <token>', 'access token to use as is (env IDSVC_TOKEN)')
    .option('--profile <name>', 'saved login to use (env IDSVC_PROFILE)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(formats).default('table'))
    .option('--no-color', 'no colours (also when NO_COLOR is set or output is not a terminal)')
    .option('--quiet', 'no notes or progress on stderr')
    .option('-v, --verbose', 'trace HTTP requests on stderr')
    .addHelpText(
      'after',
      `
Every admin operation is a command: idsvc <resource> <action> (see idsvc ops), or idsvc api <operationId>.
Exit codes: 0 ok, 1 server error, 2 usage, 3 not found, 4 conflict, 5 not authenticated/permitted,
            6 invalid input, 7 partly done.`,
    );
  program.hook('preAction', async (_program, action) => {
    const options = action.optsWithGlobals() as { color?: boolean };
    if (options.color !== false) await loadColors();
  });
  program.commandsGroup('Sign-in:');
  for (const command of [loginCommand(), logoutCommand(), whoamiCommand(), profilesCommand()]) {
    program.addCommand(command);
  }
  program.commandsGroup('General:');
  for (const command of [apiCommand(), opsCommand(), applyCommand(), completionCommand(), serveCommand()]) {
    program.addCommand(command);
  }
  program.commandsGroup('Resources:');
  for (const group of catalogGroups(handMade)) program.addCommand(group);
  configure(program);
  return program;
}
