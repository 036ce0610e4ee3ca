/**
 * Recognises a watch event that repeats the last one of its object except in fields that
 * change on every write and mean nothing to fleetdeck: a kubelet's heartbeat rewrites its Node
 * every 10 s with only `lastHeartbeatTime` and `resourceVersion` new. Such a line is not
 * parsed (parsing a 4 KB Node is most of an idle fleet's CPU); only its resourceVersion is
 * kept, so the watch resumes from it.
 */
import { hash } from 'node:crypto';

/** Values that change on every write: the object's version, heartbeat and managed-field times. */
const VOLATILE = /"(?:resourceVersion|lastHeartbeatTime|time)":"[^"]*"/g;
const HEAD = /^\{"type":"(ADDED|MODIFIED|DELETED)","object":\{.*?"metadata":\{"name":"([^"]+)"(?:,"namespace":"([^"]+)")?/;
const RESOURCE_VERSION = /"resourceVersion":"([^"]+)"/;

export class UnchangedLines {
  /** A digest of each object's last event, volatile values removed; by namespace/name. */
  private readonly last = new Map<string, string>();

  /**
   * The line's resourceVersion when it is a MODIFIED event equal to its object's last event
   * but for volatile values (the caller skips it); undefined when the line must be parsed.
   */
  skippable(line: string): string | undefined {
    const head = HEAD.exec(line);
    if (!head) return undefined;
    const [, type, name, namespace] = head;
    const key = namespace ? `${namespace}/${name}` : name!;
    if (type === 'DELETED') {
      this.last.delete(key);
      return undefined;
    }
    // The one-shot hash: no Hash object per event.
    const digest = hash('sha1', line.slice(line.indexOf('"object"')).replace(VOLATILE, ''), 'base64');
    if (type === 'MODIFIED' && this.last.get(key) === digest) return RESOURCE_VERSION.exec(line)?.[1];
    this.last.set(key, digest);
    return undefined;
  }

  /** After a list, what was last seen is no longer what the caller holds. */
  clear(): void {
    this.last.clear();
  }
}
