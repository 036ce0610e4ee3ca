/**
 * core/v1 Events about objects, as `kubectl describe` shows them: source.component and
 * reportingComponent name the writer, reportingInstance who runs it. An event repeated
 * (same object, type, reason and message) is aggregated as the kubelet's recorder does: the
 * first one is created, the next ones patch its count and lastTimestamp. Writes go one after
 * another in the background; a write that fails is reported once (`onFailure`) and never
 * thrown: an Event is worth less than the work it describes.
 */
import { CoreV1Api, PatchStrategy, setHeaderOptions, type CoreV1Event, type KubeConfig } from '@kubernetes/client-node';
import { describeError, makeClient, statusCode } from '../transport/client.js';

const REQUEST_TIMEOUT_MS = 10_000;

/** The object an Event is about. Cluster-scoped objects (a Node) have no namespace: their Events go to `default`. */
export interface EventObject {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  uid?: string;
}

export type EventType = 'Normal' | 'Warning';

export interface EventRecorderOptions {
  /** source.component and reportingComponent (e.g. `fleetdeck`). */
  component: string;
  /** reportingInstance (and source.host): who writes, e.g. `bastion-1/4242` or `pod/runner-x`. */
  instance: string;
  /** Called once, with the first write that failed (later failures are silent). */
  onFailure?: (message: string) => void;
}

/** Messages longer than the API allows are cut (1 KiB, as the kubelet does). */
const MESSAGE_MAX = 1024;

const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

export class EventRecorder {
  private readonly seen = new Map<string, { namespace: string; name: string; count: number }>();
  private queue: Promise<void> = Promise.resolve();
  private failed = false;

  constructor(
    private readonly kc: KubeConfig,
    private readonly opts: EventRecorderOptions,
  ) {}

  /** Records an Event about `obj` (in the background; `flush` waits for it). */
  record(obj: EventObject, type: EventType, reason: string, message: string): void {
    const text = message.length > MESSAGE_MAX ? `${message.slice(0, MESSAGE_MAX - 1)}…` : message;
    this.queue = this.queue.then(() => this.write(obj, type, reason, text)).catch((err: unknown) => this.fail(err));
  }

  /** Resolves once every Event recorded so far was written (or failed). */
  flush(): Promise<void> {
    return this.queue;
  }

  private fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.opts.onFailure?.(`cannot write Events: ${describeError(err)}`);
  }

  private async write(obj: EventObject, type: EventType, reason: string, message: string): Promise<void> {
    const core = makeClient(this.kc, CoreV1Api, REQUEST_TIMEOUT_MS);
    const key = [obj.kind, obj.namespace ?? '', obj.name, obj.uid ?? '', type, reason, message].join('\0');
    const now = new Date();
    const prior = this.seen.get(key);
    if (prior) {
      try {
        await core.patchNamespacedEvent(
          { namespace: prior.namespace, name: prior.name, body: { count: prior.count + 1, lastTimestamp: now.toISOString() } },
          mergePatch(),
        );
        prior.count++;
        return;
      } catch (err) {
        // Expired (Events live an hour) or deleted: a new one.
        if (statusCode(err) !== 404) throw err;
        this.seen.delete(key);
      }
    }
    const namespace = obj.namespace ?? 'default';
    const name = `${obj.name}.${(BigInt(now.getTime()) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000))).toString(16)}`;
    const body: CoreV1Event = {
      metadata: { name, namespace },
      involvedObject: {
        apiVersion: obj.apiVersion,
        kind: obj.kind,
        name: obj.name,
        ...(obj.namespace ? { namespace: obj.namespace } : {}),
        ...(obj.uid ? { uid: obj.uid } : {}),
      },
      type,
      reason,
      message,
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
      source: { component: this.opts.component },
      reportingComponent: this.opts.component,
      reportingInstance: this.opts.instance,
    };
    await core.createNamespacedEvent({ namespace, body });
    this.seen.set(key, { namespace, name, count: 1 });
  }
}

/** Events of one object, newest last (as `kubectl describe` lists them): fieldSelector involvedObject.name (and kind). */
export async function listObjectEvents(kc: KubeConfig, namespace: string, name: string, kind?: string): Promise<CoreV1Event[]> {
  const fieldSelector = [`involvedObject.name=${name}`, ...(kind ? [`involvedObject.kind=${kind}`] : [])].join(',');
  const res = await makeClient(kc, CoreV1Api, REQUEST_TIMEOUT_MS).listNamespacedEvent({ namespace, fieldSelector });
  return res.items;
}
