import { nodeCounts, reachabilityLine } from '../../../store/selectors.js';
import type { ContextState } from '../../../store/types.js';
import type { FleetConfig } from '../../../kube/fleet/fleet.js';
import { contextRoles } from '../fleet/fleet-roles.js';
import type { DetailSection } from '../status-nav.js';

/** A count on a section tab: "3/4", "3 bad", "5"; `warn` when it needs a look. */
export interface TabCount {
  text: string;
  warn: boolean;
}

/** Plain values for the title and the section tabs, so the header redraws only when one of them changed. */
export interface DetailHeader {
  /** "reachable (12 ms)", "unreachable since 10:42:07". */
  reachability: string;
  tone: 'ok' | 'warn' | 'fail';
  /** "workload", "hosting and control plane"; empty outside the fleet. */
  role: string;
  version: string;
  nodes: string;
  nodesWarn: boolean;
  pods: string;
  podsWarn: boolean;
  events: string;
  eventsWarn: boolean;
}

export function detailHeader(ctx: ContextState, fleet: FleetConfig | undefined): DetailHeader {
  const latency = ctx.reachability === 'reachable' && ctx.latencyMs !== undefined ? ` (${Math.round(ctx.latencyMs)} ms)` : '';
  const c = ctx.nodes.synced ? nodeCounts(ctx) : undefined;
  const { pods, events } = ctx;
  return {
    reachability: reachabilityLine({ ...ctx, lastError: undefined }) + latency,
    tone: ctx.notReady !== undefined ? 'fail' : ctx.reachability === 'reachable' ? 'ok' : ctx.reachability === 'unknown' ? 'warn' : 'fail',
    role: contextRoles(fleet, ctx.name).join(' and '),
    version: ctx.version ?? '',
    nodes: ctx.nodes.forbidden !== undefined ? 'forbidden' : c ? `${c.ready}/${c.total}` : '',
    nodesWarn: ctx.nodes.forbidden !== undefined || (c !== undefined && (c.ready < c.total || c.cordoned > 0)),
    pods:
      pods.forbidden !== undefined
        ? 'forbidden'
        : !pods.synced
          ? ''
          : pods.problemCount > 0
            ? `${pods.problemCount} bad`
            : String(pods.total),
    podsWarn: pods.forbidden !== undefined || pods.problemCount > 0,
    events: events.forbidden !== undefined ? 'forbidden' : events.synced ? String(events.warnings.length) : '',
    eventsWarn: events.forbidden !== undefined || events.warnings.length > 0,
  };
}

/** The count shown on each section's tab. */
export function tabCount(h: DetailHeader, section: DetailSection): TabCount | undefined {
  switch (section) {
    case 'info':
      return undefined;
    case 'nodes':
      return h.nodes ? { text: h.nodes, warn: h.nodesWarn } : undefined;
    case 'pods':
      return h.pods ? { text: h.pods, warn: h.podsWarn } : undefined;
    case 'events':
      return h.events ? { text: h.events, warn: h.eventsWarn } : undefined;
  }
}
