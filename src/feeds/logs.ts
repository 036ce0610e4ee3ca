/**
 * The log view's feed, what the view's actions do: on openLogs, the target's pods found (by name
 * or selector), the container chosen (the target's, else the pod's default), the previous
 * instance preferred when it crashed; one log stream per pod (log-streams.ts: the last lines,
 * then followed, flushed into the slice on a timer); while following, the pods watched: pods
 * that join the selector added, a restarted container read on; the target object's Events
 * re-read now and then; the switches, container, search and save. Closing the view aborts every
 * stream and the watch.
 */
import { defaultContainer, podContainers, prefersPrevious, restartsOf } from '../kube/pods/log-pods.js';
import type { LogPod } from '../kube/pods/workloads.js';
import type { LogToggle } from '../store/actions.js';
import { updateSlice, type FleetStore } from '../store/fleet-store.js';
import type { LogTarget } from '../store/log-target.js';
import { logsClosed, logsOpened, mergedLines, newRing, searchMatches, type LogSource, type LogsSlice } from '../store/logs.js';
import type { Session } from '../session/session.js';
import { type FeedFactory, heldSession } from './feed.js';
import { saveLog } from './log-save.js';
import { ViewStreams, type StreamsShared } from './log-streams.js';
import type { HeldLogActions, LogsFeedOptions, LogsWork } from './logs-contract.js';
import { logsWork } from './logs-work.js';

export type { HeldLogActions, LogsFeedOptions, LogsWork } from './logs-contract.js';

const EVENTS_EVERY_MS = 15_000;

/** One open view: its pods, streams, pod watch and Events timer. */
interface View {
  target: LogTarget;
  pods: LogPod[];
  streams: ViewStreams;
  watch?: { stop(): void | Promise<void> };
  eventsTimer?: NodeJS.Timeout;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The container a pod shows for the view's choice: the same name when it has it, '' when not. */
const containerOf = (pod: LogPod, wanted: string | undefined) =>
  wanted === undefined ? defaultContainer(pod) : podContainers(pod).includes(wanted) ? wanted : '';

export function startLogsFeed(store: FleetStore, work: LogsWork, opts: LogsFeedOptions = {}): HeldLogActions {
  const feed = new LogsFeedImpl(store, work, opts);
  return {
    openLogs: (target) => feed.openLogs(target),
    close: () => feed.close(),
    toggle: (what) => feed.toggle(what),
    nextContainer: () => feed.nextContainer(),
    search: (term) => feed.search(term),
    match: (seq) => feed.match(seq),
    save: () => void feed.save(),
    openStreams: () => feed.shared.running.size,
    restart: () => feed.restart(),
    stop: () => feed.end(),
  };
}

class LogsFeedImpl {
  private view: View | undefined;
  private seq = 0;
  readonly shared: StreamsShared;

  constructor(
    private readonly store: FleetStore,
    private readonly work: LogsWork,
    private readonly opts: LogsFeedOptions,
  ) {
    this.shared = { store, work, flushMs: opts.flushMs, tailLines: opts.tailLines, running: new Set(), nextSeq: () => ++this.seq };
  }

  private update(change: (s: LogsSlice) => LogsSlice): void {
    updateSlice(this.store, 'logs', change);
  }

  private get slice(): LogsSlice {
    return this.store.getState().logs;
  }

  /** Every stream again from scratch (a switch changed): the rings emptied, the tail read again. */
  private reopen(v: View): void {
    v.streams.stop();
    this.update((s) => ({
      ...s,
      sources: s.sources.map((src) => {
        src.ring.clear();
        const pod = v.pods.find((p) => p.name === src.pod);
        return pod ? sourceFor(pod, s.container, src.ring) : src;
      }),
      revision: s.revision + 1,
    }));
    v.streams.openAll();
  }

  /** The pod watch saw a pod: one of the view's is updated (a restarted container is read again), a new one joins. */
  private podSeen(v: View, pod: LogPod): void {
    if (this.view !== v) return;
    const at = v.pods.findIndex((p) => p.name === pod.name);
    if (at < 0) return this.addPod(v, pod);
    v.pods[at] = pod;
    if (this.slice.sources.some((src) => src.pod === pod.name && src.restarts !== restartsOf(pod, src.container))) {
      this.update((s) => ({
        ...s,
        sources: s.sources.map((src) => (src.pod === pod.name ? { ...src, restarts: restartsOf(pod, src.container) } : src)),
        // Its previous instance is now there to read (p).
        previousOffered: s.previousOffered || (s.container !== undefined && restartsOf(pod, s.container) > 0),
      }));
    }
    v.streams.podChanged(pod);
  }

  /** A pod that joined the selector while following. */
  private addPod(v: View, pod: LogPod): void {
    v.pods.push(pod);
    this.update((s) => ({
      ...s,
      sources: [...s.sources, sourceFor(pod, s.container, newRing(s.capacity))],
      containers: [...new Set([...s.containers, ...podContainers(pod)])],
      revision: s.revision + 1,
    }));
    v.streams.open(this.slice.sources.length - 1);
  }

  /** Watch the target's pods while following (and only then): pods that join, containers that restart, pods that go. */
  private syncWatch(v: View): void {
    const { pods, selector } = v.target;
    const want = this.slice.follow && (selector !== undefined || !!pods?.length);
    if (want && !v.watch && this.work.watchPods) {
      v.watch = this.work.watchPods(
        v.target.context,
        v.target.namespace,
        { pods, selector },
        {
          onList: (listed) => {
            for (const pod of listed) this.podSeen(v, pod);
          },
          onEvent: (type, pod) => {
            if (type !== 'DELETED') this.podSeen(v, pod);
            else v.pods = v.pods.filter((p) => p.name !== pod.name);
          },
        },
      );
    } else if (!want && v.watch) {
      void v.watch.stop();
      v.watch = undefined;
    }
  }

  private readEvents(v: View): void {
    const object = v.target.events ?? (v.pods[0] ? { kind: 'Pod', name: v.pods[0].name } : undefined);
    if (!object) return;
    this.work.events(v.target.context, object.namespace ?? v.target.namespace, object.kind, object.name).then(
      (events) => {
        if (this.view === v) this.update((s) => ({ ...s, events, eventsError: undefined }));
      },
      (err: unknown) => {
        if (this.view === v) this.update((s) => ({ ...s, eventsError: message(err) }));
      },
    );
  }

  /** The pods found: a source each, the container and `previous` chosen, the streams, watch and Events started. */
  private begin(v: View, pods: LogPod[]): void {
    v.pods = [...pods];
    const wanted = v.target.container;
    const container = wanted && pods.some((p) => podContainers(p).includes(wanted)) ? wanted : defaultContainer(pods[0]!);
    const chosen = pods.map((p) => {
      const c = containerOf(p, container);
      return c ? p.statuses[c] : undefined;
    });
    this.update((s) => ({
      ...s,
      phase: 'ready',
      container,
      containers: [...new Set(pods.flatMap(podContainers))],
      sources: pods.map((p) => sourceFor(p, container, newRing(s.capacity))),
      previous: chosen.every(prefersPrevious),
      previousOffered: chosen.some((c) => (c?.restarts ?? 0) > 0),
      revision: s.revision + 1,
    }));
    v.streams.openAll();
    this.syncWatch(v);
    this.readEvents(v);
    v.eventsTimer = setInterval(() => this.readEvents(v), this.opts.eventsEveryMs ?? EVENTS_EVERY_MS);
    v.eventsTimer.unref?.();
  }

  private async start(v: View): Promise<void> {
    let pods: LogPod[];
    try {
      pods = await this.work.findPods(v.target.context, v.target.namespace, { pods: v.target.pods, selector: v.target.selector });
    } catch (err) {
      if (this.view === v) this.update((s) => ({ ...s, phase: { error: `cannot read the pods: ${message(err)}` } }));
      return;
    }
    if (this.view !== v) return;
    if (pods.length > 0) return this.begin(v, pods);
    const what = v.target.pods?.length ? v.target.pods.join(', ') : `selector ${v.target.selector ?? '(none)'}`;
    this.update((s) => ({ ...s, phase: { error: `no pods found in ${v.target.namespace} (${what})` } }));
  }

  end(): void {
    const v = this.view;
    if (!v) return;
    this.view = undefined;
    v.streams.end();
    if (v.watch) void v.watch.stop();
    clearInterval(v.eventsTimer);
  }

  openLogs(target: LogTarget): void {
    this.end();
    const podOf = (name: string) => v.pods.find((p) => p.name === name);
    const v: View = { target, pods: [], streams: new ViewStreams(this.shared, target.context, target.namespace, podOf) };
    this.view = v;
    this.update((s) => logsOpened(s, target));
    void this.start(v);
  }

  close(): void {
    this.end();
    this.update(logsClosed);
  }

  toggle(what: LogToggle): void {
    this.update((s) => ({ ...s, [what]: !s[what], note: undefined }));
    const v = this.view;
    if (!v || (what !== 'follow' && what !== 'previous') || this.slice.phase !== 'ready') return;
    this.syncWatch(v);
    this.reopen(v);
  }

  nextContainer(): void {
    const s = this.slice;
    const v = this.view;
    if (!v || s.containers.length < 2) return;
    const at = s.containers.indexOf(s.container ?? '');
    const container = s.containers[(at + 1) % s.containers.length]!;
    this.update((x) => ({ ...x, container, previousOffered: v.pods.some((p) => restartsOf(p, container) > 0) }));
    this.reopen(v);
  }

  search(term: string): void {
    this.update((s) => {
      const matches = searchMatches(mergedLines(s.sources), term);
      const { match: _old, ...rest } = s;
      const last = matches[matches.length - 1];
      return { ...rest, search: term, ...(last !== undefined ? { match: last } : {}) };
    });
  }

  match(seq: number | undefined): void {
    this.update((s) => {
      const { match: _old, ...rest } = s;
      return seq === undefined ? rest : { ...rest, match: seq };
    });
  }

  async save(): Promise<void> {
    const note = await saveLog(this.slice, this.opts.dir ?? process.cwd(), this.opts.now?.() ?? new Date());
    this.update((s) => ({ ...s, note }));
  }

  restart(): void {
    const target = this.view?.target;
    if (target) this.openLogs(target);
  }
}

/** Pod's source for the view's container choice, reading into `ring`. */
function sourceFor(pod: LogPod, container: string | undefined, ring: LogSource['ring']): LogSource {
  const c = containerOf(pod, container);
  return {
    pod: pod.name,
    container: c,
    containers: podContainers(pod),
    restarts: restartsOf(pod, c),
    status: c ? 'connecting' : { error: `no container "${container}" in this pod` },
    ring,
  };
}

export interface LogsFeedFactoryOptions extends LogsFeedOptions {
  /** Lines the view keeps per pod (--log-lines; default DEFAULT_LOG_LINES). */
  logLines?: number;
  /** The calls bound to a session (default: logs-work.ts, through src/kube). */
  work?: (session: Session) => LogsWork;
}

/** The log view's feed: what it opens reads through the session as it is then; a new session opens the view again. */
export function logsFeed({ logLines, work = logsWork, ...o }: LogsFeedFactoryOptions = {}): FeedFactory {
  return ({ store }) => {
    if (logLines !== undefined) updateSlice(store, 'logs', (s) => ({ ...s, capacity: logLines }));
    return heldSession('logs', (session) => {
      const feed = startLogsFeed(store, work(session), o);
      return { actions: feed, restart: () => feed.restart(), stop: () => feed.stop() };
    });
  };
}
