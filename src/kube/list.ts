import { statusCode } from './client.js';
import type { ListResult } from './watch.js';

/** Page size of initial lists: 50,000 pods arrive in 100 requests, each within the request timeout. */
export const LIST_PAGE_SIZE = 500;
/** A burst of watch events produces at most one summary per interval. */
export const PUBLISH_INTERVAL_MS = 50;

/** Epoch ms of a timestamp: a Date from a list, an RFC 3339 string from a watch. */
export function toMs(v: Date | string | undefined | null): number | undefined {
  if (v === undefined || v === null) return undefined;
  const ms = v instanceof Date ? v.getTime() : Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

/** One page of a list call (the shape every generated `list…` method returns). */
export interface ListPage<T> {
  items: T[];
  metadata?: { _continue?: string; resourceVersion?: string };
}

/**
 * Lists a collection page by page (`limit` and continue tokens) and maps every item as its
 * page arrives. Returns all items and the resourceVersion of the list, which a watch resumes
 * from. When a continue token expired (410 Gone, the list took longer than etcd keeps its
 * snapshot) it falls back to one unpaginated list, as client-go's pager does.
 */
export async function listPaged<T, U>(
  fetchPage: (opts: { limit?: number; _continue?: string }) => Promise<ListPage<T>>,
  map: (item: T) => U,
  pageSize = LIST_PAGE_SIZE,
): Promise<ListResult<U>> {
  const items: U[] = [];
  let cont: string | undefined;
  let resourceVersion: string | undefined;
  do {
    let page: ListPage<T>;
    try {
      page = await fetchPage(cont ? { limit: pageSize, _continue: cont } : { limit: pageSize });
    } catch (err) {
      if (cont === undefined || statusCode(err) !== 410) throw err;
      const full = await fetchPage({});
      return { items: full.items.map(map), metadata: { ...(full.metadata?.resourceVersion ? { resourceVersion: full.metadata.resourceVersion } : {}) } };
    }
    for (const item of page.items) items.push(map(item));
    cont = page.metadata?._continue || undefined;
    resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
  } while (cont);
  return { items, metadata: resourceVersion ? { resourceVersion } : {} };
}

