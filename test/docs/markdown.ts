/**
 * What the documentation tests read of a Markdown page: its lines inside and outside fenced code,
 * its headings with the anchors GitHub makes of them, its links, its code spans.
 */
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const DOCS = path.join(ROOT, 'docs');

/** README.md and every page under docs/, as paths from the root. */
export function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return walk(p);
      return e.name.endsWith('.md') ? [p] : [];
    });
  return ['README.md', ...walk(DOCS).map((p) => path.relative(ROOT, p))].sort();
}

export const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

export interface Line {
  /** 1-based. */
  n: number;
  text: string;
  /** Inside a fenced code block (the fences themselves included). */
  fenced: boolean;
}

export function lines(text: string): Line[] {
  let fence: string | undefined;
  return text.split('\n').map((t, i) => {
    const marker = /^\s*(```+|~~~+)/.exec(t)?.[1];
    if (marker && fence === undefined) {
      fence = marker;
      return { n: i + 1, text: t, fenced: true };
    }
    if (marker && fence !== undefined && marker.startsWith(fence)) {
      fence = undefined;
      return { n: i + 1, text: t, fenced: true };
    }
    return { n: i + 1, text: t, fenced: fence !== undefined };
  });
}

export interface Heading {
  level: number;
  /** As written, inline code and all. */
  text: string;
  /** GitHub's anchor for it. */
  slug: string;
  line: number;
}

/** The text a heading shows: inline code, emphasis and links reduced to their words. */
function shown(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__|\*)(.+?)\1/g, '$2')
    .trim();
}

/** GitHub's slug (github-slugger): lower case, only letters, marks, digits, `_`, `-` and spaces kept, spaces as `-`. */
export function slugOf(text: string): string {
  return shown(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

export function headings(text: string): Heading[] {
  const seen = new Map<string, number>();
  return lines(text).flatMap((l) => {
    const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(l.text);
    if (l.fenced || !m) return [];
    const base = slugOf(m[2]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return [{ level: m[1]!.length, text: m[2]!, slug: count ? `${base}-${count}` : base, line: l.n }];
  });
}

/** The page's text outside fenced code, its inline code spans (which may run over lines) blanked, line breaks kept. */
function proseOf(text: string): string {
  const outside = lines(text)
    .map((l) => (l.fenced ? '' : l.text))
    .join('\n');
  return outside.replace(/`[^`]+`/g, (s) => s.replace(/[^\n]/g, ' '));
}

export interface Link {
  target: string;
  line: number;
}

/** The Markdown links of a page (outside code), their targets as written. */
export function links(text: string): Link[] {
  return proseOf(text)
    .split('\n')
    .flatMap((l, i) => [...l.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ target: m[1]!, line: i + 1 })));
}

/**
 * The pieces of a page a flag is read in: each line of fenced code, each inline code span, and
 * the prose of each line around them (link targets left out).
 */
export function segments(text: string): { text: string; code: boolean; line: number }[] {
  const all = lines(text);
  const outside = all.map((l) => (l.fenced ? '' : l.text)).join('\n');
  const lineAt = (index: number) => outside.slice(0, index).split('\n').length;
  const fenced = all.filter((l) => l.fenced).map((l) => ({ text: l.text, code: true, line: l.n }));
  const spans = [...outside.matchAll(/`([^`]+)`/g)].map((m) => ({
    text: m[1]!.replace(/\n/g, ' '),
    code: true,
    line: lineAt(m.index ?? 0),
  }));
  const prose = proseOf(text)
    .split('\n')
    .map((l, i) => ({ text: l.replace(/\]\([^)]*\)/g, ']'), code: false, line: i + 1 }));
  return [...fenced, ...spans, ...prose];
}
