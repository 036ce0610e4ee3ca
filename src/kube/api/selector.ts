/**
 * Label selectors, one module: the kubectl syntax parser (k8s.io/apimachinery/pkg/labels:
 * Parse), matching of parsed requirements and of metav1.LabelSelector objects, and the way back
 * from a LabelSelector to the kubectl syntax.
 */
import { UsageError } from '../../errors.js';

export type SelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

export interface SelectorRequirement {
  key: string;
  operator: SelectorOperator;
  values: string[];
}

/** metav1.LabelSelectorRequirement, as the server sends it. */
export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
  values?: string[] | null;
}

/** metav1.LabelSelector, as the server sends it. */
export interface LabelSelector {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: LabelSelectorRequirement[] | null;
}

type Token =
  | { kind: 'id'; text: string; pos: number }
  | { kind: 'op'; text: '=' | '==' | '!=' | '!' | '(' | ')' | ',' | '<' | '>'; pos: number }
  | { kind: 'end'; pos: number };

const SPECIAL = new Set(['!', '=', ',', '(', ')', '<', '>']);

function tokenize(text: string, fail: (why: string, pos: number) => never): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if ((c === '!' || c === '=') && text[i + 1] === '=') {
      tokens.push({ kind: 'op', text: c === '!' ? '!=' : '==', pos: i });
      i += 2;
    } else if (SPECIAL.has(c)) {
      tokens.push({ kind: 'op', text: c as '=' | '!' | '(' | ')' | ',' | '<' | '>', pos: i });
      i++;
    } else {
      const start = i;
      while (i < text.length && !SPECIAL.has(text[i]!) && !/\s/.test(text[i]!)) i++;
      tokens.push({ kind: 'id', text: text.slice(start, i), pos: start });
    }
  }
  if (tokens.length === 0 && text.trim() !== '') fail('nothing to parse', 0);
  tokens.push({ kind: 'end', pos: text.length });
  return tokens;
}

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why a label key is invalid (metav1 validation: `[prefix/]name`), or undefined. */
export function labelKeyError(key: string): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined) {
    if (prefix.length === 0) return `label key "${key}": the prefix before "/" is empty`;
    if (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))
      return `label key "${key}": prefix "${prefix}" is not a DNS subdomain (lower-case letters, digits, "-" and ".")`;
  }
  if (name.length === 0) return `label key "${key}": the name is empty`;
  if (name.length > 63) return `label key "${key}": the name is longer than 63 characters`;
  if (!NAME_PART.test(name))
    return `label key "${key}": the name must consist of letters, digits, "-", "_" or ".", starting and ending with a letter or digit`;
  return undefined;
}

/** Why a label value is invalid, or undefined (the empty value is valid). */
export function labelValueError(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > 63) return `label value "${value}" is longer than 63 characters`;
  if (!NAME_PART.test(value))
    return `label value "${value}" must consist of letters, digits, "-", "_" or ".", starting and ending with a letter or digit`;
  return undefined;
}

/** A parsed requirement and the syntax it was written in (`=`/`==` is an equality, which a LabelSelector keeps in matchLabels). */
interface Parsed {
  req: SelectorRequirement;
  equality: boolean;
}

/** A cursor over the tokens of one selector, failing with one line naming the selector and the column. */
class SelectorReader {
  private i = 0;
  private readonly tokens: Token[];

  constructor(readonly text: string) {
    this.tokens = tokenize(text, this.fail);
  }

  readonly fail = (why: string, pos: number): never => {
    throw new UsageError(`invalid selector "${this.text}": ${why} (at column ${pos + 1})`);
  };

  peek = (): Token => this.tokens[this.i]!;
  next = (): Token => this.tokens[this.i++]!;
  describe = (t: Token): string => (t.kind === 'end' ? 'the end' : `"${t.text}"`);
  isOp = (t: Token, ...ops: string[]): boolean => t.kind === 'op' && ops.includes(t.text);

  key(t: Token): string {
    if (t.kind !== 'id') return this.fail(`expected a label key, found ${this.describe(t)}`, t.pos);
    const err = labelKeyError(t.text);
    if (err) this.fail(err, t.pos);
    return t.text;
  }

  value(t: Token): string {
    const err = labelValueError(t.kind === 'id' ? t.text : '');
    if (err) this.fail(err, t.pos);
    return t.kind === 'id' ? t.text : '';
  }
}

/** `key in (a,b)` / `key notin (a,b)`, after the key and the word. */
function readSet(r: SelectorReader, k: string, word: string): SelectorRequirement {
  const open = r.next();
  if (!r.isOp(open, '(')) r.fail(`expected "(" after "${word}", found ${r.describe(open)}`, open.pos);
  const values: string[] = [];
  for (;;) {
    const v = r.peek();
    if (r.isOp(v, ')')) {
      if (values.length === 0) r.fail(`"${word}" needs at least one value`, v.pos);
      r.next();
      break;
    }
    if (v.kind === 'end') r.fail(`expected ")" to close the values of "${k}"`, v.pos);
    if (v.kind === 'op' && v.text !== ',') r.fail(`expected a value, "," or ")", found ${r.describe(v)}`, v.pos);
    // An empty value between commas ("in (a,,b)") is the empty string, as in kubectl.
    if (v.kind === 'id') r.next();
    values.push(r.value(v));
    const sep = r.peek();
    if (r.isOp(sep, ',')) r.next();
    else if (!r.isOp(sep, ')')) r.fail(`expected "," or ")" after the value, found ${r.describe(sep)}`, sep.pos);
  }
  return { key: k, operator: word === 'in' ? 'In' : 'NotIn', values: [...new Set(values)] };
}

/** One requirement starting at the reader's position. */
function readRequirement(r: SelectorReader): Parsed {
  const t = r.next();
  if (r.isOp(t, '!')) return { req: { key: r.key(r.next()), operator: 'DoesNotExist', values: [] }, equality: false };
  const k = r.key(t);
  const op = r.peek();
  if (op.kind === 'end' || r.isOp(op, ',')) return { req: { key: k, operator: 'Exists', values: [] }, equality: false };
  if (op.kind === 'op' && (op.text === '=' || op.text === '==' || op.text === '!=')) {
    r.next();
    // `key=` is the empty value; the value may not be an operator.
    const v = r.peek();
    if (v.kind === 'op' && v.text !== ',') r.fail(`expected a value after "${op.text}", found ${r.describe(v)}`, v.pos);
    if (v.kind === 'id') r.next();
    const notEqual = op.text === '!=';
    return { req: { key: k, operator: notEqual ? 'NotIn' : 'In', values: [r.value(v)] }, equality: !notEqual };
  }
  if (op.kind === 'op' && (op.text === '<' || op.text === '>')) {
    r.next();
    const v = r.next();
    if (v.kind !== 'id' || !/^-?\d+$/.test(v.text)) r.fail(`"${op.text}" needs a whole number, found ${r.describe(v)}`, v.pos);
    return { req: { key: k, operator: op.text === '>' ? 'Gt' : 'Lt', values: [(v as { text: string }).text] }, equality: false };
  }
  if (op.kind === 'id' && (op.text === 'in' || op.text === 'notin')) {
    r.next();
    return { req: readSet(r, k, op.text), equality: false };
  }
  return r.fail(`expected "=", "==", "!=", "in", "notin", "<", ">", "," or the end after "${k}", found ${r.describe(op)}`, op.pos);
}

function parseRequirements(text: string): Parsed[] {
  const r = new SelectorReader(text);
  const out: Parsed[] = [];
  if (r.peek().kind === 'end') return out;
  for (;;) {
    out.push(readRequirement(r));
    const sep = r.next();
    if (sep.kind === 'end') break;
    if (!r.isOp(sep, ',')) r.fail(`expected "," or the end, found ${r.describe(sep)}`, sep.pos);
    if (r.peek().kind === 'end') r.fail('expected a requirement after ","', r.peek().pos);
  }
  return out;
}

/**
 * Parses a label selector as kubectl's `-l` does: requirements separated by commas, each
 * `key=value`, `key==value`, `key!=value`, `key in (v1,v2)`, `key notin (v1,v2)`, `key`
 * (exists), `!key` (does not exist), `key>N`, `key<N`. The empty selector selects everything.
 * Throws a UsageError naming the selector, the column and what was expected.
 */
export function parseSelector(text: string): SelectorRequirement[] {
  return parseRequirements(text).map((p) => p.req);
}

/**
 * A selector in kubectl's syntax as a metav1.LabelSelector: equalities (`a=b`, `a==b`) in
 * matchLabels, everything else in matchExpressions. `>` and `<` have no LabelSelector form, and
 * one key cannot equal two values: UsageErrors.
 */
export function parseLabelSelector(text: string): LabelSelector {
  const labels: Record<string, string> = {};
  const exprs: LabelSelectorRequirement[] = [];
  for (const { req, equality } of parseRequirements(text)) {
    if (req.operator === 'Gt' || req.operator === 'Lt') {
      throw new UsageError(`invalid selector "${text}": "${req.operator === 'Gt' ? '>' : '<'}" has no LabelSelector form`);
    }
    if (equality) {
      const v = req.values[0]!;
      if (labels[req.key] !== undefined && labels[req.key] !== v) {
        throw new UsageError(`invalid selector "${text}": "${req.key}" cannot equal two values`);
      }
      labels[req.key] = v;
    } else {
      exprs.push({ key: req.key, operator: req.operator, ...(req.values.length ? { values: req.values } : {}) });
    }
  }
  const sel: LabelSelector = {};
  if (Object.keys(labels).length) sel.matchLabels = labels;
  if (exprs.length) sel.matchExpressions = exprs;
  return sel;
}

/** Why a selector is invalid (as metav1.LabelSelectorAsSelector would refuse it), or undefined. */
export function selectorError(selector: LabelSelector): string | undefined {
  for (const r of selector.matchExpressions ?? []) {
    const n = r.values?.length ?? 0;
    switch (r.operator) {
      case 'In':
      case 'NotIn':
        if (n === 0) return `${r.key} ${r.operator}: values must be non-empty`;
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (n > 0) return `${r.key} ${r.operator}: values must be empty`;
        break;
      default:
        return `${r.key}: operator "${r.operator}" is not a label selector operator`;
    }
  }
  return undefined;
}

function requirementHolds(r: LabelSelectorRequirement, l: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(l, r.key);
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && values.includes(l[r.key]!);
    case 'NotIn':
      return !(has && values.includes(l[r.key]!));
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      return true;
  }
}

/**
 * metav1.LabelSelector semantics: a null selector matches nothing, an empty one everything;
 * matchLabels and every matchExpression must all hold (In, NotIn — also true when the label is
 * absent —, Exists, DoesNotExist). An invalid selector matches nothing.
 */
export function labelSelectorMatches(
  selector: LabelSelector | null | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  if (!selector) return false;
  if (selectorError(selector)) return false;
  const l = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (!Object.hasOwn(l, k) || l[k] !== v) return false;
  return (selector.matchExpressions ?? []).every((r) => requirementHolds(r, l));
}

export function isEmptySelector(s: LabelSelector): boolean {
  return Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0;
}

/** Whether the labels satisfy every requirement (the empty list matches everything). */
export function selectorMatches(reqs: readonly SelectorRequirement[], labels: Readonly<Record<string, string>>): boolean {
  const standard = reqs.filter((r) => r.operator !== 'Gt' && r.operator !== 'Lt');
  if (!labelSelectorMatches({ matchExpressions: standard }, labels)) return false;
  for (const r of reqs) {
    if (r.operator !== 'Gt' && r.operator !== 'Lt') continue;
    const v = labels[r.key];
    if (v === undefined || !/^-?\d+$/.test(v)) return false;
    const n = Number(v);
    const bound = Number(r.values[0]);
    if (r.operator === 'Gt' ? !(n > bound) : !(n < bound)) return false;
  }
  return true;
}

/**
 * A metav1.LabelSelector (matchLabels, matchExpressions) as a selector string parseSelector
 * reads back: `k=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`, in the object's order. Throws
 * (one line) for an operator or values metav1 would refuse.
 */
export function selectorString(sel: LabelSelector): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) parts.push(`${k}=${String(v)}`);
  for (const r of sel.matchExpressions ?? []) {
    const values = r.values ?? [];
    switch (r.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) throw new UsageError(`matchExpressions: "${r.key} ${r.operator}" needs at least one value`);
        parts.push(`${r.key} ${r.operator === 'In' ? 'in' : 'notin'} (${values.join(',')})`);
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) throw new UsageError(`matchExpressions: "${r.key} ${r.operator}" takes no values`);
        parts.push(r.operator === 'Exists' ? r.key : `!${r.key}`);
        break;
      default:
        throw new UsageError(`matchExpressions: operator "${r.operator}" of "${r.key}" is not one of In, NotIn, Exists, DoesNotExist`);
    }
  }
  return parts.join(',');
}

/**
 * A LabelSelector to show, in kubectl's syntax: labels and values sorted, a one-value In as
 * `k=v` and NotIn as `k!=v` (`a=b,c in (d,e),!f`). Never throws: an unknown operator is shown
 * as it is.
 */
export function describeSelector(selector: LabelSelector): string {
  const parts = Object.entries(selector.matchLabels ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`);
  for (const r of selector.matchExpressions ?? []) {
    const values = [...(r.values ?? [])].sort();
    switch (r.operator) {
      case 'In':
        parts.push(values.length === 1 ? `${r.key}=${values[0]}` : `${r.key} in (${values.join(',')})`);
        break;
      case 'NotIn':
        parts.push(values.length === 1 ? `${r.key}!=${values[0]}` : `${r.key} notin (${values.join(',')})`);
        break;
      case 'Exists':
        parts.push(r.key);
        break;
      case 'DoesNotExist':
        parts.push(`!${r.key}`);
        break;
      default:
        parts.push(`${r.key} ${r.operator} (${values.join(',')})`);
    }
  }
  return parts.join(',');
}
