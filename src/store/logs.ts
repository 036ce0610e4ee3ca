/**
 * The log view's slice: the target it was opened for, one source per pod (its container, the
 * state of its stream, a ring of its last lines), the view's switches (follow, previous,
 * container, wrap, timestamps), the search, the target object's recent Events and the line the
 * last save left. Written by the logs feed (src/feeds/logs.ts) and its actions only.
 */
import { Ring } from './log-ring.js';
import type { LogTarget } from './log-target.js';

/** Lines kept per source unless `--log-lines` says otherwise. */
export const DEFAULT_LOG_LINES = 5_000;
/** A line longer than this is cut (one runaway line must not hold megabytes). */
export const MAX_LINE_CHARS = 4_096;

/** One line of one source; `seq` orders lines of every source by arrival. */
export interface LogLine {
  seq: number;
  /** Index into the slice's sources. */
  source: number;
  /** The runtime's RFC 3339 stamp ('' when none). */
  time: string;
  text: string;
}

export type StreamStatus = 'connecting' | 'streaming' | 'ended' | { error: string };

/** One pod's stream. */
export interface LogSource {
  pod: string;
  /** The container streamed ('' when the pod has none of the chosen name). */
  container: string;
  /** The pod's containers, in spec order. */
  containers: string[];
  /** Restarts of the streamed container. */
  restarts: number;
  status: StreamStatus;
  ring: Ring<LogLine>;
}

/** One Event of the target object, as the pane beside the log shows it. */
export interface LogEvent {
  type: string;
  reason: string;
  message: string;
  count: number;
  /** Epoch ms. */
  lastSeen: number;
}

export interface LogsSlice {
  /** The open view's target; undefined: the view is closed. */
  target?: LogTarget;
  /** Lines kept per source. */
  capacity: number;
  /** Finding the target's pods, done, or why they could not be read (one line). */
  phase: 'resolving' | 'ready' | { error: string };
  sources: LogSource[];
  /** Every container name of the sources' pods (what `c` cycles through). */
  containers: string[];
  /** The container shown (the target's, else the pod's default). */
  container?: string;
  follow: boolean;
  previous: boolean;
  /** The chosen container restarted: its previous instance's log is worth a look. */
  previousOffered: boolean;
  wrap: boolean;
  timestamps: boolean;
  /** The search term ('' none) and the `seq` of the current match. */
  search: string;
  match?: number;
  events: LogEvent[];
  eventsError?: string;
  /** What the last save did. */
  note?: { text: string; kind: 'ok' | 'fail' };
  /** Bumped whenever lines arrive (the rings are mutated in place). */
  revision: number;
}

export const emptyLogs = (capacity = DEFAULT_LOG_LINES): LogsSlice => ({
  capacity,
  phase: 'resolving',
  sources: [],
  containers: [],
  follow: true,
  previous: false,
  previousOffered: false,
  wrap: false,
  timestamps: false,
  search: '',
  events: [],
  revision: 0,
});

/** The view opens on a target: nothing known yet, following, the lines of the last view gone. */
export function logsOpened(s: LogsSlice, target: LogTarget): LogsSlice {
  return { ...emptyLogs(s.capacity), target, ...(target.container ? { container: target.container } : {}) };
}

export function logsClosed(s: LogsSlice): LogsSlice {
  return emptyLogs(s.capacity);
}

/** A new ring for a source. */
export function newRing(capacity: number): Ring<LogLine> {
  return new Ring<LogLine>(capacity);
}

/** A line cut to MAX_LINE_CHARS (and without the carriage return of CRLF logs). */
export function boundedText(text: string): string {
  const t = text.endsWith('\r') ? text.slice(0, -1) : text;
  return t.length > MAX_LINE_CHARS ? `${t.slice(0, MAX_LINE_CHARS - 1)}…` : t;
}

/** Every line held, of every source, in arrival order. */
export function mergedLines(sources: readonly LogSource[]): LogLine[] {
  if (sources.length === 1) return sources[0]!.ring.toArray();
  const all: LogLine[] = [];
  for (const s of sources) for (const l of s.ring.toArray()) all.push(l);
  return all.sort((a, b) => a.seq - b.seq);
}

/** The `seq` of every line whose text has `term` (case-insensitive), oldest first. */
export function searchMatches(lines: readonly LogLine[], term: string): number[] {
  if (!term) return [];
  const t = term.toLowerCase();
  const out: number[] = [];
  for (const l of lines) if (l.text.toLowerCase().includes(t)) out.push(l.seq);
  return out;
}

/** The pod (and container) a line of several sources is prefixed with. */
export function sourceLabel(sources: readonly LogSource[], i: number): string {
  const s = sources[i];
  if (!s) return '';
  const several = new Set(sources.map((x) => x.container)).size > 1;
  return several ? `${s.pod}/${s.container}` : s.pod;
}

/** A line as saved or shown: `[pod] time text`, the pod when there are several sources, the time when asked for. */
export function formatLine(sources: readonly LogSource[], l: LogLine, timestamps: boolean): string {
  const prefix = sources.length > 1 ? `[${sourceLabel(sources, l.source)}] ` : '';
  return `${prefix}${timestamps && l.time ? `${l.time} ` : ''}${l.text}`;
}
