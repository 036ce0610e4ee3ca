/**
 * `fleetdeck completion bash|zsh|fish`: the shell's completion script, as @bomb.sh/tab writes it
 * (each Tab runs `fleetdeck complete -- WORDS…`). The bash script reads the line with
 * bash-completion's `_get_comp_words_by_ref`; where that package is not loaded it falls back to
 * bash's own COMP_WORDS and COMP_CWORD.
 */
import { RootCommand } from '@bomb.sh/tab';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const BASH_WORDS_CALL = '_get_comp_words_by_ref -n "=:" cur prev words cword';

const BASH_WORDS = `# The words of the line: bash-completion's reading where it is loaded, else bash's own.
__fleetdeck_words() {
    if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
        ${BASH_WORDS_CALL}
    else
        cur=\${COMP_WORDS[COMP_CWORD]}
        prev=\${COMP_WORDS[COMP_CWORD-1]}
        words=("\${COMP_WORDS[@]:0:COMP_CWORD+1}")
        cword=$COMP_CWORD
    fi
}
`;

export function completionScript(shell: Shell, name = 'fleetdeck'): string {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => lines.push(args.map(String).join(' '));
  try {
    new RootCommand().setup(name, name, shell);
  } finally {
    console.log = log;
  }
  const script = lines.join('\n');
  if (shell !== 'bash') return script;
  if (!script.includes(BASH_WORDS_CALL)) throw new Error('unexpected bash completion script from @bomb.sh/tab');
  const body = script.replace(BASH_WORDS_CALL, '__fleetdeck_words');
  const at = body.indexOf('# Function to handle completions');
  return at < 0 ? `${BASH_WORDS}\n${body}` : `${body.slice(0, at)}${BASH_WORDS}\n${body.slice(at)}`;
}
