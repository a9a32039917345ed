import { Command, type Option } from 'commander';
import { UsageError } from '../errors.js';
import { writeOut } from '../output/write.js';

interface Node {
  path: string;
  subcommands: { name: string; description: string }[];
  options: string[];
}

function optionNames(options: readonly Option[]): string[] {
  return options.flatMap((o) => [o.short, o.long].filter((n): n is string => typeof n === 'string'));
}

/** Every command path of the program with its subcommands and options. */
function nodes(root: Command): Node[] {
  const out: Node[] = [];
  const walk = (command: Command, path: string[]) => {
    out.push({
      path: path.join(' '),
      subcommands: command.commands.map((c) => ({ name: c.name(), description: c.description().split('\n')[0] })),
      options: [...optionNames(command.options), '--help', ...(path.length === 0 ? [] : optionNames(root.options))],
    });
    for (const sub of command.commands) walk(sub, [...path, sub.name()]);
  };
  walk(root, []);
  return out;
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
/** Options of the program that take a value (the word after them is not a command). */
const valueOptions = '--url|--token|--profile|-o|--output';

function bash(root: Command): string {
  const cases = nodes(root)
    .map((n) => `    ${quote(n.path)}) echo ${quote([...n.subcommands.map((s) => s.name), ...n.options].join(' '))} ;;`)
    .join('\n');
  return `# idsvc completion for bash: source <(idsvc completion bash)
_idsvc_words() {
  case "$1" in
${cases}
  esac
}
_idsvc() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmdpath="" i w skip=0
  case "$prev" in
    -o|--output) COMPREPLY=( $(compgen -W "table json yaml csv" -- "$cur") ); return ;;
    -f|--file|--errors) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
  esac
  for ((i=1; i<COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if [[ $skip == 1 ]]; then skip=0; continue; fi
    case "$w" in ${valueOptions}) skip=1; continue ;; -*) continue ;; esac
    local next="\${cmdpath:+$cmdpath }$w"
    if [[ " $(_idsvc_words "$cmdpath") " == *" $w "* ]]; then cmdpath="$next"; fi
  done
  COMPREPLY=( $(compgen -W "$(_idsvc_words "$cmdpath")" -- "$cur") )
}
complete -o default -F _idsvc idsvc
`;
}

function zsh(root: Command): string {
  const esc = (s: string) => s.replaceAll(':', '\\:').replaceAll("'", "'\\''");
  const cases = nodes(root)
    .map((n) => {
      const commands = n.subcommands.map((s) => `'${esc(s.name)}:${esc(s.description)}'`).join(' ');
      return `    ${quote(n.path)}) cmds=(${commands}); opts=(${n.options.map(quote).join(' ')}) ;;`;
    })
    .join('\n');
  return `#compdef idsvc
# idsvc completion for zsh: idsvc completion zsh > "\${fpath[1]}/_idsvc" (or source <(idsvc completion zsh))
_idsvc() {
  local -a cmds opts
  local cmdpath="" w i skip=0
  case "\${words[CURRENT-1]}" in
    -o|--output) compadd table json yaml csv; return ;;
    -f|--file|--errors) _files; return ;;
  esac
  for ((i=2; i<CURRENT; i++)); do
    w="\${words[i]}"
    if [[ $skip == 1 ]]; then skip=0; continue; fi
    case "$w" in ${valueOptions}) skip=1; continue ;; -*) continue ;; esac
    _idsvc_node "$cmdpath"
    if (( \${cmds[(I)$w:*]} )); then cmdpath="\${cmdpath:+$cmdpath }$w"; fi
  done
  _idsvc_node "$cmdpath"
  if [[ "\${words[CURRENT]}" == -* ]]; then compadd -- $opts; return; fi
  if (( \${#cmds} )); then _describe -t commands 'idsvc command' cmds; else _files; fi
}
_idsvc_node() {
  cmds=(); opts=()
  case "$1" in
${cases}
  esac
}
if [[ "\${funcstack[1]}" == "_idsvc" ]]; then _idsvc "$@"; else compdef _idsvc idsvc; fi
`;
}

/** `idsvc completion bash|zsh`: a completion script for the shell, generated from the command tree. */
export function completionCommand(): Command {
  return new Command('completion')
    .description('print a shell completion script (bash or zsh)')
    .argument('<shell>', 'bash or zsh')
    .addHelpText(
      'after',
      `
  bash:  echo 'source <(idsvc completion bash)' >> ~/.bashrc
  zsh:   echo 'source <(idsvc completion zsh)' >> ~/.zshrc`,
    )
    .action(async (shell: string, _options: unknown, cmd: Command) => {
      let root: Command = cmd;
      while (root.parent) root = root.parent;
      if (shell === 'bash') await writeOut(bash(root));
      else if (shell === 'zsh') await writeOut(zsh(root));
      else throw new UsageError(`no completion for ${shell}: bash or zsh`);
    });
}
