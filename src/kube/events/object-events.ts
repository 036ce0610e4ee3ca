/** The recent Events of one object (by kind and name), summarised for the log view's Events pane. */
import type { CoreV1Event, KubeConfig } from '@kubernetes/client-node';
import { makeJsonClient } from '../transport/client.js';
import { eventCount, eventLastSeen } from './events.js';
import { listJsonPaged } from '../watch/list.js';

const REQUEST_TIMEOUT_MS = 15_000;

/** One Event of an object, newest first in lists. */
export interface ObjectEvent {
  type: string;
  reason: string;
  message: string;
  count: number;
  lastSeen: number;
}

/** At most this many Events of an object are kept (the newest). */
export const OBJECT_EVENT_LIMIT = 50;

/** The Events of one object (by kind and name, in its namespace), newest first. */
export async function listObjectEvents(kc: KubeConfig, namespace: string, kind: string, name: string): Promise<ObjectEvent[]> {
  const fieldSelector = `involvedObject.kind=${kind},involvedObject.name=${name}`;
  const res = await listJsonPaged<CoreV1Event, ObjectEvent>(
    makeJsonClient(kc, REQUEST_TIMEOUT_MS),
    `/api/v1/namespaces/${encodeURIComponent(namespace)}/events`,
    { fieldSelector },
    (e) => ({
      type: e.type ?? 'Normal',
      reason: e.reason ?? '',
      message: (e.message ?? '').replace(/\s+/g, ' ').trim(),
      count: eventCount(e),
      lastSeen: eventLastSeen(e),
    }),
  );
  return res.items.sort((a, b) => b.lastSeen - a.lastSeen).slice(0, OBJECT_EVENT_LIMIT);
}
