/**
 * The completion model of @bomb.sh/tab, made from fleetdeck's commander program: every visible
 * command (`rollout resume`), its options with their short forms, the values of options with
 * choices (`-o text|json|yaml`) and its arguments. The options of the program itself (`--context`,
 * `--kubeconfig`, `-o`…) are taken anywhere on the line, as commander takes them, so every
 * command gets them too.
 */
import { type ArgumentHandler, type Command as TabCommand, type OptionHandler, RootCommand } from '@bomb.sh/tab';
import type { Command, Option } from 'commander';

/** Values offered for an option's argument (by its long name, without dashes) or a command's argument. */
export interface Dynamic {
  option?: Record<string, OptionHandler>;
  /** By `command path:argument name`, e.g. `rollout resume:name`. */
  argument?: Record<string, ArgumentHandler>;
}

function addOption(target: TabCommand, o: Option, dynamic: Dynamic): void {
  const long = o.long?.replace(/^--/, '');
  if (!long) return;
  const short = o.short?.replace(/^-/, '');
  const takesValue = o.required || o.optional;
  const choices = o.argChoices ?? [];
  const handler: OptionHandler | undefined =
    dynamic.option?.[long] ??
    (choices.length
      ? (complete) => {
          for (const c of choices) complete(c, '');
        }
      : takesValue
        ? () => {}
        : undefined);
  if (handler) target.option(long, o.description, handler, short);
  else target.option(long, o.description, short);
}

function addArguments(target: TabCommand, cmd: Command, path: string, dynamic: Dynamic): void {
  for (const a of cmd.registeredArguments) {
    const choices = a.argChoices ?? [];
    const handler: ArgumentHandler | undefined =
      dynamic.argument?.[`${path}:${a.name()}`] ??
      (choices.length
        ? (complete) => {
            for (const c of choices) complete(c, '');
          }
        : undefined);
    target.argument(a.name(), handler, a.variadic);
  }
}

export function completionModel(program: Command, dynamic: Dynamic = {}): RootCommand {
  const root = new RootCommand();
  const globals = program.createHelp().visibleOptions(program);
  for (const o of globals) addOption(root, o, dynamic);
  addArguments(root, program, '', dynamic);
  const walk = (cmd: Command, prefix: string) => {
    for (const sub of cmd.createHelp().visibleCommands(cmd)) {
      if (sub.name() === 'help') continue;
      const path = prefix ? `${prefix} ${sub.name()}` : sub.name();
      const target = root.command(path, sub.description());
      for (const o of sub.createHelp().visibleOptions(sub)) addOption(target, o, dynamic);
      for (const o of globals) if (!target.options.has(o.long?.replace(/^--/, '') ?? '')) addOption(target, o, dynamic);
      addArguments(target, sub, path, dynamic);
      walk(sub, path);
    }
  };
  walk(program, '');
  return root;
}
