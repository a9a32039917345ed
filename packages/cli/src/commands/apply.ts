import { Command } from 'commander';
import { collect } from '../catalog-commands.js';
import { contextOf } from '../context.js';
import { UsageError } from '../errors.js';

export interface ApplyFlags {
  file?: string[];
  dryRun?: boolean;
  prune?: boolean;
  yes?: boolean;
}

export const applyHelp = `
Documents are JSON or YAML objects {kind, spec} (several per YAML file with ---, or a JSON array). Kinds, in the
order they are applied: Organization, Group, ClaimDefinition, ClaimSet, Transformation, EmailServer,
EmailTemplate, SmsTemplate, SmsGateway, Connection (organizations after their parent, connections after those
they depend on). Each object is found by its name (claimType for claim definitions) and created when missing,
updated when a field the document gives differs (fields it leaves out are left alone; secrets such as
passwords and client secrets are not compared), or left unchanged. Nothing is deleted unless --prune: then
objects of the documents' kinds that no document names are deleted (never Root, UsernamePassword, idsvc-cli
or the REST API role claim); without a terminal --prune needs --yes.

Example document (groups.yaml):
  kind: Group
  spec:
    name: Staff
    description: Everyone employed
  ---
  kind: Organization
  spec: { name: Sales, parentName: Root }

Exit codes: 0 applied (or nothing to do), 6 a document is invalid (nothing changed), 7 some changes failed.`;

/** `idsvc apply -f FILE|DIR`: declarative create-or-update of configuration objects. */
export function applyCommand(): Command {
  return new Command('apply')
    .description('create or update configuration to match JSON/YAML documents (idempotent)')
    .requiredOption('-f, --file <path>', 'document file or folder (- for stdin); repeatable', collect)
    .option('--dry-run', 'print the plan (create / update with a field diff / unchanged) and change nothing')
    .option('--prune', 'also delete objects of the same kinds that no document names')
    .option('-y, --yes', 'do not ask before deleting (--prune)')
    .addHelpText('after', applyHelp)
    .action(async (flags: ApplyFlags, cmd: Command) => {
      if (!flags.file?.length) throw new UsageError('-f FILE|DIR is required');
      const ctx = contextOf(cmd);
      const { loadDocuments } = await import('../apply/documents.js');
      const { apply } = await import('../apply/run.js');
      await apply(ctx, await loadDocuments(flags.file), flags);
    });
}
