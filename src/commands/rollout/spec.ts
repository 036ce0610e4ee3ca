/** `rollout create`'s spec: from the flags and the NodeRollout file, its name (given or generated), checked before the cluster is read. */
import fs from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';
import { UsageError, UserError } from '../../errors.js';
import { parseSelector } from '../../kube/api/selector.js';
import { combineGuards, guardsFromFlags } from '../../rollout/guards/spec-flags.js';
import { parseNodeRollout, type NodeRolloutSpec } from '../../rollout/noderollout.js';
import { generatedName, rolloutNameError } from '../../rollout/plan.js';
import { readRollout } from '../../rollout/state.js';
import {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_HEALTH,
  DEFAULT_MAX_UNAVAILABLE,
  DEFAULT_REPLACE,
  REPLACE_MODES,
  type ReplaceMode,
  type RolloutSpec,
} from '../../rollout/types.js';
import type { RolloutCreateOptions } from '../rollout.js';

const NEEDS_CONTEXT = '--context (the cluster whose nodes are replaced)';
const NEEDS_NODES = 'nodes: --selector SEL [--priority N], --node NAME [--priority N], or -f NODEROLLOUT.yaml';

/**
 * What `rollout create` cannot start without — the cluster (--context, never the current context)
 * and the nodes (flags or -f) — every one missing said in one line, before the flags are checked
 * further and before --yes is asked for.
 */
export function requireInputs(opts: RolloutCreateOptions, fileSpec?: NodeRolloutSpec): void {
  const missing: string[] = [];
  if (!(opts.context ?? []).some(Boolean)) missing.push(NEEDS_CONTEXT);
  const nodes = (opts.targets?.length ?? 0) + (fileSpec?.nodeSelectors.length ?? 0) + (fileSpec?.nodeNames.length ?? 0);
  if (nodes === 0) missing.push(NEEDS_NODES);
  if (missing.length) throw new UsageError(`rollout create needs ${missing.join(' and ')}`);
}

/** The flags' selectors and names, added to the file's; each checked. */
function targetsOf(opts: RolloutCreateOptions, fileSpec?: NodeRolloutSpec): Pick<RolloutSpec, 'nodeSelectors' | 'nodeNames'> {
  const nodeSelectors = [...(fileSpec?.nodeSelectors ?? [])];
  const nodeNames = [...(fileSpec?.nodeNames ?? [])];
  for (const t of opts.targets ?? []) {
    if (t.kind === 'selector') {
      parseSelector(t.value);
      nodeSelectors.push({ selector: t.value, priority: t.priority ?? 0 });
    } else {
      if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(t.value)) throw new UsageError(`--node "${t.value}" is not a node name`);
      nodeNames.push({ name: t.value, priority: t.priority ?? 0 });
    }
  }
  if (nodeSelectors.length === 0 && nodeNames.length === 0) {
    throw new UsageError(`rollout create needs ${NEEDS_NODES}`);
  }
  return { nodeSelectors, nodeNames };
}

/** The spec from the flags and the NodeRollout file (flags and file add up). */
export function specFromOptions(opts: RolloutCreateOptions, context: string, name: string, fileSpec?: NodeRolloutSpec): RolloutSpec {
  const replace = (opts.replace ?? DEFAULT_REPLACE) as ReplaceMode;
  if (!REPLACE_MODES.includes(replace)) throw new UsageError(`--replace ${opts.replace}: use one of ${REPLACE_MODES.join(', ')}`);
  return {
    name,
    context,
    ...targetsOf(opts, fileSpec),
    maxUnavailable: opts.maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE,
    replace,
    drain: {
      force: opts.force === true,
      deleteEmptyDirData: opts.deleteEmptydirData === true,
      timeoutMs: opts.timeout ?? DEFAULT_DRAIN_TIMEOUT_MS,
    },
    health: {
      passes: opts.healthPasses ?? DEFAULT_HEALTH.passes,
      intervalMs: opts.healthInterval ?? DEFAULT_HEALTH.intervalMs,
      timeoutMs: opts.healthTimeout ?? DEFAULT_HEALTH.timeoutMs,
    },
    guards: combineGuards(fileSpec?.guards, guardsFromFlags(opts)),
  };
}

/** The NodeRollout file of -f, parsed; undefined without -f. */
export function readFileSpec(filename: string | undefined): NodeRolloutSpec | undefined {
  if (!filename) return undefined;
  let content: string;
  try {
    content = fs.readFileSync(filename, 'utf8');
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw new UserError(`cannot read ${filename}: ${why}`, 2);
  }
  return parseNodeRollout(content, filename);
}

/** The name given (--name, else the file's metadata.name), checked; undefined when none is. */
export function explicitName(opts: RolloutCreateOptions, fileSpec?: NodeRolloutSpec): string | undefined {
  const name = opts.name ?? fileSpec?.name;
  if (name === undefined) return undefined;
  const err = rolloutNameError(name);
  if (err) throw new UsageError(`${err}${opts.name ? ' (--name)' : ` (metadata.name in ${opts.filename})`}`);
  return name;
}

/** The rollout's name: the one given, unless taken, or the first free generated one. */
export async function chooseName(kc: KubeConfig, context: string, given: string | undefined): Promise<string> {
  if (given !== undefined) {
    if (await readRollout(kc, given)) {
      throw new UsageError(
        `a rollout named ${given} exists already in ${context}; choose another --name (fleetdeck rollout list shows them)`,
      );
    }
    return given;
  }
  const base = generatedName();
  for (let i = 1; ; i++) {
    const candidate = i === 1 ? base : `${base}-${i}`;
    if (!(await readRollout(kc, candidate))) return candidate;
    if (i > 50) throw new UserError('could not find a free rollout name; give --name');
  }
}
