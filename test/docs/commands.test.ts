/**
 * docs/commands/ against the program: walking the commander tree of `buildProgram()`, every
 * command has its page (a subcommand, a section of its parent's page headed `fleetdeck PARENT SUB`)
 * and every flag of a command a row of a table in its section (the root program's on
 * global-flags.md); and a page names no `--flag` that is neither its command's (or one of its
 * subcommands') nor a global flag. A flag in a command line of another program (`kubectl drain
 * --force`, in code) is that program's; the few named on purpose otherwise are listed below.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main.js';
import { REFUSED_KUBECTL_FLAGS } from '../../src/program/kubectl-plugin.js';
import { headings, lines, read, ROOT, segments } from './markdown.js';

const COMMANDS = 'docs/commands';
const program = buildProgram();

/** Pages of docs/commands/ that are not a command's. */
const OTHER_PAGES = ['README.md', 'dashboard.md', 'global-flags.md'];

/** Flags of other programs that a page names on purpose, outside their command lines, and why. */
const NAMED_ON_PURPOSE: Record<string, Record<string, string>> = {
  'global-flags.md': Object.fromEntries(
    [...REFUSED_KUBECTL_FLAGS.keys()]
      .filter((f) => f.startsWith('--'))
      .map((f) => [f, "kubectl's global flag, which kubectl fleetdeck refuses (src/program/kubectl-plugin.ts)"]),
  ),
  'install.md': { '--cluster-name': "the nova-agent's own flag, which the install sets on each cluster's agent" },
};

/** Programs whose command lines appear in code: a flag after one of them (and no `fleetdeck` between) is theirs. */
const OTHER_PROGRAMS = /(?<![\w-])(kubectl|npm|npx|node|docker|podman|sed|curl|fleetdeck)(?![\w-])/g;
const FLAG = /(?<![\w-])--[a-z][a-z0-9-]*/g;

const visible = (cmd: Command) =>
  cmd
    .createHelp()
    .visibleCommands(cmd)
    .filter((c) => c.name() !== 'help');
const pathOf = (cmd: Command): string[] => (cmd.parent ? [...pathOf(cmd.parent), cmd.name()] : []);
const longFlags = (cmd: Command, hidden: boolean) =>
  cmd.options.filter((o) => hidden || !o.hidden).flatMap((o) => (o.long ? [o.long] : []));

function tree(cmd: Command): Command[] {
  return [cmd, ...visible(cmd).flatMap(tree)];
}
function everyCommand(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(everyCommand)];
}

const ROOT_FLAGS = new Set([...longFlags(program, true), '--help']);

const byName = (name: string) => program.commands.find((c) => c.name() === name);
const flagsOf = (cmds: readonly Command[]) => new Set([...ROOT_FLAGS, ...cmds.flatMap((c) => longFlags(c, true))]);
/** Pages about every command: they may name the flags of any. */
const ANY_COMMAND = ['README.md', 'global-flags.md'];

/** The flags a page may name: its command's and its subcommands' (hidden ones too), and the global flags. */
function known(page: string): Set<string> {
  const cmd = byName(page.replace(/\.md$/, ''));
  const own = ANY_COMMAND.includes(page) ? everyCommand(program) : cmd ? everyCommand(cmd) : [];
  return new Set([...flagsOf(own), ...Object.keys(NAMED_ON_PURPOSE[page] ?? {})]);
}

/**
 * The `--flags` a page names as fleetdeck's, each with the command it belongs to when the code it
 * is in names one (`fleetdeck restore FILE --dry-run`, `rollout create --replace …`): in prose, or
 * in code where no other program's command line holds them.
 */
function namedFlags(text: string): { flag: string; line: number; command?: string }[] {
  return segments(text).flatMap((s) => {
    const programs = s.code ? [...s.text.matchAll(OTHER_PROGRAMS)] : [];
    // A span that starts with a command's name (`status --watch`) is that command's.
    const leading = s.code ? byName(/^\s*([a-z]+)/.exec(s.text)?.[1] ?? '')?.name() : undefined;
    return [...s.text.matchAll(FLAG)].flatMap((m) => {
      const before = programs.filter((p) => (p.index ?? 0) < (m.index ?? 0)).at(-1);
      if (before !== undefined && before[1] !== 'fleetdeck') return [];
      // `fleetdeck CMD` where a command starts (`$ fleetdeck`, `&& fleetdeck`, `: fleetdeck`), not "the fleetdeck sandbox".
      const starts = before && /(^|[$;&|(:,]|kubectl)\s*$/.test(s.text.slice(0, before.index));
      const after = starts ? /^fleetdeck\s+([a-z]+)/.exec(s.text.slice(before.index))?.[1] : undefined;
      const command = (after && byName(after)?.name()) ?? (before ? undefined : leading);
      return [{ flag: m[0], line: s.line, ...(command ? { command } : {}) }];
    });
  });
}

/** The lines of a command's section: from its heading to the next of the same or a higher level, its subcommands' sections left out. */
function sectionOf(page: string, cmd: Command): string[] | undefined {
  const text = read(page);
  const all = lines(text);
  const hs = headings(text);
  const span = (c: Command): [number, number] | undefined => {
    const words = ['fleetdeck', ...pathOf(c)].join(' ');
    const at = hs.findIndex((h) => new RegExp(`\`${words}(?=[\`\\s])`).test(h.text));
    if (at < 0) return undefined;
    const h = hs[at]!;
    const next = hs.slice(at + 1).find((x) => x.level <= h.level);
    return [h.line, next ? next.line - 1 : all.length];
  };
  const own = span(cmd);
  if (!own) return undefined;
  const subs = visible(cmd).flatMap((c) => {
    const s = span(c);
    return s ? [s] : [];
  });
  return all.filter((l) => l.n >= own[0] && l.n <= own[1] && !subs.some(([a, b]) => l.n >= a && l.n <= b)).map((l) => l.text);
}

/** The flags in the first cell of the table rows of these lines. */
function tableFlags(section: readonly string[]): Set<string> {
  return new Set(section.filter((l) => l.startsWith('|')).flatMap((l) => [...(l.split('|')[1] ?? '').matchAll(FLAG)].map((m) => m[0])));
}

const pageOf = (cmd: Command) => `${COMMANDS}/${pathOf(cmd)[0]}.md`;

describe('docs/commands against buildProgram()', () => {
  const topLevel = visible(program);
  const commands = topLevel.flatMap(tree);

  it('has a page for every command, and no page for a command that is not there', () => {
    const pages = fs.readdirSync(path.join(ROOT, COMMANDS)).sort();
    expect(pages.filter((p) => !OTHER_PAGES.includes(p))).toEqual(topLevel.map((c) => `${c.name()}.md`).sort());
    for (const p of OTHER_PAGES) expect(pages).toContain(p);
  });

  it.each(commands.map((c) => [pathOf(c).join(' '), c] as const))('%s: a section headed by its name', (_name, cmd) => {
    expect(sectionOf(pageOf(cmd), cmd), `a heading with \`fleetdeck ${pathOf(cmd).join(' ')}\` on ${pageOf(cmd)}`).toBeDefined();
  });

  it.each(commands.map((c) => [pathOf(c).join(' '), c] as const))('%s: every flag in a table of its section', (_name, cmd) => {
    const documented = tableFlags(sectionOf(pageOf(cmd), cmd) ?? []);
    expect(longFlags(cmd, false).filter((f) => !documented.has(f))).toEqual([]);
  });

  it('global-flags.md: every flag of the root program in its table, and every kubectl flag kubectl fleetdeck refuses', () => {
    const page = read(`${COMMANDS}/global-flags.md`);
    const documented = tableFlags(page.split('\n'));
    expect([...longFlags(program, false), '--help'].filter((f) => !documented.has(f))).toEqual([]);
    const named = new Set(page.match(FLAG) ?? []);
    expect([...REFUSED_KUBECTL_FLAGS.keys()].filter((f) => f.startsWith('--') && !named.has(f))).toEqual([]);
  });

  it.each(fs.readdirSync(path.join(ROOT, COMMANDS)).sort())('%s: names only flags that exist there', (page) => {
    const allowed = known(page);
    const unknown = namedFlags(read(`${COMMANDS}/${page}`))
      .filter((f) => !(f.command ? flagsOf(everyCommand(byName(f.command)!)) : allowed).has(f.flag))
      .map((f) => `line ${f.line}: ${f.flag}`);
    expect(unknown).toEqual([]);
  });
});
