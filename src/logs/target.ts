/** The TARGET argument of `fleetdeck logs`, as kubectl takes it: `pod/NAME`, `NAME`, `deploy/NAME`… */
import { UsageError } from '../errors.js';

export type TargetKind = 'pod' | 'deployment' | 'statefulset' | 'daemonset';

export interface LogTarget {
  kind: TargetKind;
  name: string;
}

/** kubectl's names for the kinds (singular, plural, short), with or without the API group. */
const KINDS: Record<string, TargetKind> = {
  pod: 'pod',
  pods: 'pod',
  po: 'pod',
  deployment: 'deployment',
  deployments: 'deployment',
  deploy: 'deployment',
  statefulset: 'statefulset',
  statefulsets: 'statefulset',
  sts: 'statefulset',
  daemonset: 'daemonset',
  daemonsets: 'daemonset',
  ds: 'daemonset',
};

const GROUPS = new Set(['', 'apps']);
const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** `TYPE/NAME` or a plain pod NAME; anything else is a usage error (one line, exit 2). */
export function parseTarget(text: string): LogTarget {
  const slash = text.indexOf('/');
  const [type, name] = slash < 0 ? ['pod', text] : [text.slice(0, slash), text.slice(slash + 1)];
  const [resource = '', group = ''] = type.toLowerCase().split(/\.(.*)/s);
  const kind = KINDS[resource];
  if (!kind || !GROUPS.has(group) || (group === 'apps' && kind === 'pod')) {
    throw new UsageError(
      `cannot read logs of "${type}": use pod/NAME (or NAME), deployment/NAME, statefulset/NAME or daemonset/NAME, or -l SELECTOR`,
    );
  }
  if (!name) throw new UsageError(`"${text}" names no ${kind}: use ${type}/NAME`);
  if (name.length > 253 || !NAME.test(name)) throw new UsageError(`"${name}" is not a valid ${kind} name`);
  return { kind, name };
}
