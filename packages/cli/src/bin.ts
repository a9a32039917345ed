#!/usr/bin/env node
import { Command } from 'commander';
import { serveCommand } from './commands/serve.js';

const program = new Command('idsvc')
  .description('idsvc: identity and access service and its admin tool')
  .showHelpAfterError()
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));

program.addCommand(serveCommand());

await program.parseAsync(process.argv);
