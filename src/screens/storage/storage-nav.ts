/** Where the operator is on the Storage tab's inventory page; what was read and the estimate dialogues are in the store. */
export interface StorageNav {
  /** Index into the targets (contexts, then this host). */
  target: number;
  /** First line shown of the inventory page. */
  scroll: number;
  /** One line about the last key (a refusal). */
  notice?: string;
}

export type StorageAction =
  | { type: 'target'; delta: number; count: number }
  | { type: 'scrollTo'; line: number; max: number }
  /** A read was asked for: the last key's line goes. */
  | { type: 'read' }
  | { type: 'notice'; text: string | undefined };

export const initialStorageNav: StorageNav = { target: 0, scroll: 0 };

const clamp = (i: number, max: number) => Math.max(0, Math.min(i, max));

function quiet(nav: StorageNav): StorageNav {
  if (nav.notice === undefined) return nav;
  const { notice: _gone, ...rest } = nav;
  return rest;
}

export function storageReducer(nav: StorageNav, action: StorageAction): StorageNav {
  switch (action.type) {
    case 'target': {
      if (action.count <= 0) return nav;
      const target = (((nav.target + action.delta) % action.count) + action.count) % action.count;
      return target === nav.target ? nav : { ...quiet(nav), target, scroll: 0 };
    }
    case 'scrollTo':
      return { ...quiet(nav), scroll: clamp(action.line, action.max) };
    case 'read':
      return quiet(nav);
    case 'notice':
      return action.text ? { ...nav, notice: action.text } : quiet(nav);
  }
}
