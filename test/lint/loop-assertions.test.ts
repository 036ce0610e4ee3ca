/**
 * Every test can fail: a test whose assertions all sit in a loop passes, asserting nothing, when
 * the loop runs zero times (`for (const d of disks) expect(d)…` with no disk). Branches are
 * vitest/no-conditional-expect's (npm run lint); loops are this check's.
 *
 * It parses each test file of test/ (tracked or new, test/fixtures left out) with @swc/core and
 * names, as `file:line "test name"`, each test (`it`/`test` and their forms: `.each(…)`, `.for(…)`,
 * `.concurrent`, …, with the callback written inline) whose assertions are all in a loop body:
 * `for`, `for…of`, `for…in`, `while`, or the callback of `.forEach`/`.map`/`.flatMap`/`.filter`/
 * `.some`/`.every`. One assertion outside any loop is enough, anywhere in the test: say what the
 * loop goes over (`expect(disks).toHaveLength(3)`, `expect(disks.length).toBeGreaterThan(0)`).
 * An assertion is a call named by `.oxlintrc.tests.jsonc`'s assertFunctionNames (matched as
 * oxlint does: `expect` covers `expect(x).toBe`, `expect.soft`, `expect.poll`), so one list says
 * what asserts.
 *
 * A loop that cannot run zero times is not one here: a `do…while` body, and a `for…of` or array
 * method over an array literal with an element, written in place (`for (const x of ['a', 'b'])`)
 * or as a `const` declared once in the test or at the file's top level (`const cases = [...]; for
 * (const c of cases)`).
 *
 * Its limits, kept simple: it reads the test's own text. A helper called from the test is not
 * followed (its loop, or the assertion it makes, is not seen), nor a test whose callback is passed
 * by name. Names are not resolved by scope: a `const` of the test counts wherever it is in the
 * test, one of a `describe` callback not at all, and a parameter of the same name is not seen. A
 * counted `for (let i = 0; i < 3; i++)` counts as a loop that may run zero times; other ways to
 * iterate (`.reduce`, `.find`, recursion) are not seen. A test with no assertion at all is
 * vitest/expect-expect's, not reported here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Node, parseSync } from '@swc/core';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Array methods whose callback is a loop body: it runs once per element, so zero times on []. */
const LOOP_METHODS = new Set(['forEach', 'map', 'flatMap', 'filter', 'some', 'every']);

/** A test whose assertions all sit in loops. */
interface LoopOnly {
  line: number;
  name: string;
}

type AnyNode = Node & Record<string, unknown>;

function isNode(v: unknown): v is AnyNode {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}

/** The plain value of a parsed literal (object, array, string, number, boolean, null). */
function literal(n: unknown): unknown {
  if (!isNode(n)) return undefined;
  if (n.type === 'ParenthesisExpression') return literal(n.expression);
  if (n.type === 'ArrayExpression') return (n.elements as ({ expression: unknown } | undefined)[]).map((e) => literal(e?.expression));
  if (n.type === 'ObjectExpression') {
    const props = n.properties as AnyNode[];
    return Object.fromEntries(props.map((p) => [(p.key as { value: string }).value, literal(p.value)]));
  }
  return n.type === 'NullLiteral' ? null : n.value;
}

/** `.oxlintrc.tests.jsonc`'s assertFunctionNames (JSON with comments: parsed as a JS expression). */
function assertFunctionNames(jsonc: string): string[] {
  const program = parseSync(`(${jsonc})`, { syntax: 'ecmascript' });
  const config = literal((program.body[0] as AnyNode | undefined)?.expression) as {
    rules?: Record<string, [string, { assertFunctionNames?: string[] }]>;
  };
  const names = config.rules?.['vitest/expect-expect']?.[1]?.assertFunctionNames;
  if (!names?.length) throw new Error('.oxlintrc.tests.jsonc: no assertFunctionNames under vitest/expect-expect');
  return names;
}

/** A pattern of assertFunctionNames as oxlint reads it: `*` one name part, `**` any, and what follows `.…` too. */
function namePattern(pattern: string): RegExp {
  const parts = pattern.split('.').map((p) => (p === '**' ? '[a-z\\d\\.]*' : p.replaceAll('*', '[a-z\\d]*')));
  return new RegExp(`^${parts.join('\\.')}(\\.|$)`, 'iu');
}

/** The dotted name of a callee, as oxlint's: `expect(x).resolves.toBe` is `expect.resolves.toBe`. */
function calleeName(n: unknown): string {
  if (!isNode(n)) return '';
  switch (n.type) {
    case 'Identifier':
      return n.value as string;
    case 'CallExpression':
      return calleeName(n.callee);
    case 'OptionalChainingExpression':
      return calleeName(n.base);
    case 'OptionalCallExpression':
      return calleeName(n.callee);
    case 'MemberExpression': {
      const prop = n.property as AnyNode;
      return prop.type === 'Identifier' ? `${calleeName(n.object)}.${prop.value as string}` : calleeName(n.object);
    }
    default:
      return '';
  }
}

/** The name a call is rooted at: `it` for `it(…)`, `it.each(…)(…)`, `it.each\`…\`(…)`, `it.concurrent(…)`. */
function rootName(n: unknown): string {
  if (!isNode(n)) return '';
  if (n.type === 'Identifier') return n.value as string;
  if (n.type === 'CallExpression') return rootName(n.callee);
  if (n.type === 'MemberExpression') return rootName(n.object);
  if (n.type === 'TaggedTemplateExpression') return rootName(n.tag);
  return '';
}

function isFunction(n: unknown): n is AnyNode {
  return isNode(n) && (n.type === 'ArrowFunctionExpression' || n.type === 'FunctionExpression');
}

/** An expression with its parentheses and type assertions (`as const`, `satisfies`, `<T>`) taken off. */
function bare(n: unknown): unknown {
  const wrappers = ['ParenthesisExpression', 'TsAsExpression', 'TsConstAssertion', 'TsSatisfiesExpression', 'TsTypeAssertion'];
  return isNode(n) && wrappers.includes(n.type) ? bare(n.expression) : n;
}

/** An array literal with an element: `[a]`, `[...[a], ...xs]`; not `[]` nor `[...xs]`. */
function nonEmptyArray(n: unknown): boolean {
  const a = bare(n);
  if (!isNode(a) || a.type !== 'ArrayExpression') return false;
  return (a.elements as ({ spread?: unknown; expression: unknown } | undefined)[]).some(
    (e) => e && (!e.spread || nonEmptyArray(e.expression)),
  );
}

/** Each name `declarations` declare: true when declared once, as a `const` holding a non-empty array literal. */
function arrayConsts(declarations: readonly AnyNode[]): Map<string, boolean> {
  const seen = new Map<string, boolean>();
  for (const node of declarations) {
    for (const d of node.declarations as AnyNode[]) {
      const id = d.id as AnyNode;
      if (id.type !== 'Identifier') continue;
      const name = id.value as string;
      seen.set(name, !seen.has(name) && node.kind === 'const' && nonEmptyArray(d.init));
    }
  }
  return seen;
}

/**
 * The names a test may loop over as array literals: its own `const`s, and the file's top-level
 * ones it does not declare again.
 */
function literalArrayNames(program: { body: unknown[] }, fn: AnyNode): Set<string> {
  const inTest: AnyNode[] = [];
  walk(fn.body, false, (node) => {
    if (node.type === 'VariableDeclaration') inTest.push(node);
  });
  const topLevel = (program.body as AnyNode[])
    .map((s) => (s.type === 'ExportDeclaration' ? (s.declaration as AnyNode) : s))
    .filter((s) => s.type === 'VariableDeclaration');
  const names = new Map([...arrayConsts(topLevel), ...arrayConsts(inTest)]);
  return new Set([...names].filter(([, literal]) => literal).map(([name]) => name));
}

/**
 * Whether `node[key]` is a loop body that may run zero times: a loop's body, or the callback of an
 * array method; not when it goes over an array literal with an element (`for (const x of [a, b])`,
 * `[a, b].forEach(…)`, or a `const` of the file holding one).
 */
function mayRunZeroTimes(node: AnyNode, key: string, literals: ReadonlySet<string>): boolean {
  const overLiteral = (iterable: unknown) => {
    const iter = bare(iterable);
    return nonEmptyArray(iter) || (isNode(iter) && iter.type === 'Identifier' && literals.has(iter.value as string));
  };
  if (key === 'body' && ['ForStatement', 'ForInStatement', 'WhileStatement'].includes(node.type)) return true;
  if (key === 'body' && node.type === 'ForOfStatement') return !overLiteral(node.right);
  if (key !== 'arguments' || node.type !== 'CallExpression') return false;
  const callee = node.callee as AnyNode;
  if (callee.type !== 'MemberExpression') return false;
  const prop = callee.property as AnyNode;
  return prop.type === 'Identifier' && LOOP_METHODS.has(prop.value as string) && !overLiteral(callee.object);
}

/**
 * Calls every node under `n` (itself included) with whether it sits below `inLoop` or in a body
 * `loops(node, key)` says is a loop's.
 */
function walk(
  n: unknown,
  inLoop: boolean,
  visit: (node: AnyNode, inLoop: boolean) => void,
  loops: (node: AnyNode, key: string) => boolean = () => false,
): void {
  if (Array.isArray(n)) {
    for (const item of n) walk(item, inLoop, visit, loops);
    return;
  }
  if (typeof n !== 'object' || n === null) return;
  if (isNode(n)) visit(n, inLoop);
  for (const [key, value] of Object.entries(n)) {
    if (key === 'span' || key === 'ctxt') continue;
    walk(value, inLoop || (isNode(n) && loops(n, key)), visit, loops);
  }
}

/** The test's name as written: a string's text, a template's with `…` for what it interpolates, or the source. */
function testName(arg: unknown, text: Buffer, base: number): string {
  if (!isNode(arg)) return '?';
  if (arg.type === 'StringLiteral') return arg.value as string;
  if (arg.type === 'TemplateLiteral') return (arg.quasis as { raw: string }[]).map((q) => q.raw).join('…');
  const { start, end } = arg.span as { start: number; end: number };
  return text.subarray(start - base, end - base).toString('utf8');
}

/**
 * The tests of one file (TypeScript, or TSX when `tsx`) whose assertions all sit in loops. Lines
 * come from swc's spans: byte offsets into the UTF-8 text, the first byte at `program.span.start`
 * less the bytes of comments and blanks before the first token.
 */
function loopOnlyTests(source: string, assertNames: readonly string[], tsx = false): LoopOnly[] {
  const program = parseSync(source, { syntax: 'typescript', tsx, comments: false });
  const text = Buffer.from(source, 'utf8');
  const lead = source.length - source.replace(/^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|#![^\n]*)*/u, '').length;
  const base = program.span.start - Buffer.byteLength(source.slice(0, lead), 'utf8');
  const lineOf = (offset: number) =>
    text
      .subarray(0, offset - base)
      .toString('utf8')
      .split('\n').length;
  const patterns = assertNames.map(namePattern);
  const found: LoopOnly[] = [];
  walk(program, false, (call) => {
    if (call.type !== 'CallExpression' || !['it', 'test'].includes(rootName(call.callee))) return;
    const args = (call.arguments as { expression: unknown }[]).map((a) => a.expression);
    const fn = args.slice(1).find(isFunction);
    if (!fn) return;
    const literals = literalArrayNames(program, fn);
    let inLoops = 0;
    let outside = 0;
    walk(
      fn.body,
      false,
      (node, inLoop) => {
        if (node.type !== 'CallExpression' || !patterns.some((p) => p.test(calleeName(node.callee)))) return;
        if (inLoop) inLoops++;
        else outside++;
      },
      (node, key) => mayRunZeroTimes(node, key, literals),
    );
    if (inLoops > 0 && outside === 0)
      found.push({ line: lineOf((call.span as { start: number }).start), name: testName(args[0], text, base) });
  });
  return found;
}

/** The test files of test/: tracked, and new ones not yet added (but not ignored); not test/fixtures. */
function testFiles(): string[] {
  const specs = ['test/**/*.test.ts', 'test/**/*.test.tsx'].map((p) => `:(glob)${p}`);
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...specs], {
    cwd: root,
    encoding: 'utf8',
  });
  const files = [...new Set(out.split('\n').filter(Boolean))];
  return files.filter((f) => !f.startsWith('test/fixtures/') && existsSync(path.join(root, f)));
}

const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const names = assertFunctionNames(read('.oxlintrc.tests.jsonc'));
const fixture = (name: string) => loopOnlyTests(read(`test/fixtures/assertions/${name}`), names);

describe('the loop rule: a test asserts outside loops too', () => {
  it("reads the assertion helpers from .oxlintrc.tests.jsonc's expect-expect", () => {
    expect(names).toEqual(expect.arrayContaining(['expect', 'expectFits', 'eventually', '*.waitFor']));
  });

  it('refuses a test whose assertions are all in loops, naming its line and name', () => {
    expect(fixture('loop-only-assertion.ts')).toEqual([
      { line: 6, name: 'formats every duration' },
      { line: 12, name: 'formats every duration, through forEach' },
      { line: 18, name: 'fits in 80 columns, line by line' },
    ]);
  });

  it('passes a test that asserts the length before the loop', () => {
    expect(fixture('loop-with-length.ts')).toEqual([]);
  });

  it('sees each form of test, helper, loop and name', () => {
    const source = [
      "it.each([1, 2])('each %s', (n) => { for (const x of xs) expect(x).toBe(n); });", // 1: flagged
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a test named by a template, in the source parsed
      'test.concurrent(`tpl ${1}`, async () => { while (a()) await expect.poll(() => 1).toBe(1); });', // 2: flagged
      "it('helper', () => { xs.map((x) => expectFits(x)); });", // 3: flagged
      "it('waitFor', async () => { for (const k in o) await app.waitFor('x'); });", // 4: flagged
      "it('soft é', () => { for (;;) expect.soft(1).toBe(1); });", // 5: flagged (a multi-byte name)
      "it('outside', () => { for (const x of xs) expect(x).toBe(1); expect(xs).toHaveLength(2); });",
      "it('nested fn', () => { expect(() => xs.forEach(f)).not.toThrow(); });",
      "it('no assertion', () => { for (const x of xs) f(x); });",
      "const r = /x/; r.test('x'); it('ref', body);",
    ].join('\n');
    expect(loopOnlyTests(`// a comment\n${source}`, names).map((t) => `${t.line - 1} ${t.name}`)).toEqual([
      '1 each %s',
      '2 tpl …',
      '3 helper',
      '4 waitFor',
      '5 soft é',
    ]);
    expect(loopOnlyTests("it('jsx', () => { xs.forEach((x) => expect(<b key={x} />).toBeTruthy()); });", names, true)).toHaveLength(1);
  });

  it('takes a do…while body, and a loop over an array literal with an element, for one that runs', () => {
    const runs = [
      "it('do', () => { do { expect(1).toBe(1); } while (a()); });",
      "it('literal', () => { for (const x of ['a', 'b'] as const) expect(x).toBeTruthy(); });",
      "it('spread literal', () => { for (const x of [...['a'], ...xs]) expect(x).toBeTruthy(); });",
      "it('method', () => { [1, 2].forEach((x) => expect(x).toBeTruthy()); });",
      "export const cases: number[] = [1, 2];\nit('const', () => { for (const c of cases) expect(c).toBeTruthy(); });",
      "const cases = [];\nit('own const', () => { const cases = [1]; for (const c of cases) expect(c).toBeTruthy(); });",
      "it('outer literal', () => { for (const n of [1]) { for (const x of xs) expect(x).toBe(n); expect(n).toBe(1); } });",
    ];
    for (const source of runs) expect(loopOnlyTests(source, names), source).toEqual([]);
    const mayNot = [
      "it('empty', () => { for (const x of []) expect(x).toBeTruthy(); });",
      "it('spread', () => { for (const x of [...xs]) expect(x).toBeTruthy(); });",
      "let cases = [1];\nit('let', () => { for (const c of cases) expect(c).toBeTruthy(); });",
      "const cases = [1];\nit('shadowed', () => { const cases = []; for (const c of cases) expect(c).toBeTruthy(); });",
      "describe('d', () => { const cases = [1]; it('in describe', () => { for (const c of cases) expect(c).toBeTruthy(); }); });",
      "it('inner', () => { for (const n of [1]) { for (const x of xs) expect(x).toBe(n); } });",
    ];
    for (const source of mayNot) expect(loopOnlyTests(source, names), source).toHaveLength(1);
  });

  it('finds no such test in test/', () => {
    const files = testFiles();
    expect(files).toContain('test/lint/loop-assertions.test.ts');
    expect(files.some((f) => f.endsWith('.tsx'))).toBe(true);
    const found = files.flatMap((f) =>
      loopOnlyTests(read(f), names, f.endsWith('.tsx')).map((t) => `${f}:${t.line} ${JSON.stringify(t.name)}`),
    );
    expect(found, 'assert outside the loop too: that it goes over something (a length, a count)').toEqual([]);
  });
});
