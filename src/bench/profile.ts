/** Reading a V8 CPU profile (`node --cpu-prof`): where the time of a run went. */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  /** Wall time the profile covers. */
  totalMs: number;
  /** Self time by category, largest first. */
  categories: [string, number][];
  /** Time with a module being loaded or evaluated anywhere on the stack (imports, top-level code). */
  importMs: number;
  /** The functions with the most self time (idle and GC excluded). */
  top: [string, number][];
}

function category(frame: ProfileNode['callFrame']): string {
  const { functionName: fn, url } = frame;
  if (fn === '(idle)') return 'idle (waiting for the API servers / network)';
  if (fn === '(garbage collector)') return 'garbage collection';
  if (fn === '(program)') return 'V8 and native code (compiling, TLS, parsing)';
  if (fn === '(root)') return '(root)';
  if (url.startsWith('node:internal/modules/') || url.startsWith('node:internal/vm')) return 'module loading (node)';
  if (/node:(_tls|tls|internal\/tls|internal\/crypto|crypto)/.test(url)) return 'TLS and crypto (node)';
  const nm = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (nm) return nm[1]!;
  if (/\/dist\//.test(url)) return 'fleetdeck';
  if (url.startsWith('node:')) return 'node core';
  return url ? 'other' : 'native functions';
}

export function summarizeProfile(file: string): ProfileSummary {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const loading = new Map<number, boolean>();
  const underImport = (id: number): boolean => {
    const known = loading.get(id);
    if (known !== undefined) return known;
    const n = byId.get(id);
    const url = n?.callFrame.url ?? '';
    const here = url.startsWith('node:internal/modules/esm') || url.startsWith('node:internal/modules/cjs');
    const up = parent.get(id);
    const v = here || (up !== undefined && underImport(up));
    loading.set(id, v);
    return v;
  };
  const cats = new Map<string, number>();
  const fns = new Map<string, number>();
  let importMs = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const id = p.samples[i]!;
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000; // the delta after a sample is the time it stands for
    const n = byId.get(id);
    if (!n) continue;
    const cat = category(n.callFrame);
    cats.set(cat, (cats.get(cat) ?? 0) + dt);
    if (underImport(id)) importMs += dt;
    if (!cat.startsWith('idle') && cat !== 'garbage collection' && cat !== '(root)') {
      const where = n.callFrame.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/dist\//, 'dist/');
      const key = `${n.callFrame.functionName || '(anonymous)'} ${where}`.trim();
      fns.set(key, (fns.get(key) ?? 0) + dt);
    }
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return {
    totalMs: (p.endTime - p.startTime) / 1000,
    categories: sorted(cats).filter(([k]) => k !== '(root)'),
    importMs,
    top: sorted(fns).slice(0, 8),
  };
}
