import type { Session } from '../session/session.js';
import type { Actions } from '../store/actions.js';
import { type Feed, sessionView } from './feed.js';

/**
 * A feed that only acts when asked: its actions are made once, with the session it holds as it
 * is at each call (started with one, re-pointed when it changes); stopping stops them if they run something.
 */
export function heldSession<K extends keyof Actions>(
  name: K,
  make: (session: Session) => NonNullable<Actions[K]> & { stop?(): void },
): Feed<K> {
  let current: Session | undefined;
  const actions = make(sessionView(() => current));
  return {
    name,
    actions,
    start: (s) => {
      current = s;
    },
    restart: (s) => {
      current = s;
    },
    stop: () => actions.stop?.(),
  };
}
