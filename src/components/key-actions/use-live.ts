import { useReducer, useRef } from 'react';

/** A reducer's state as of the last key: a chunk of keys sees each key's change before the next. */
export interface Live<S, A> {
  get(): S;
  dispatch(action: A): void;
}

/** `state` and `dispatch` kept by someone else (a parent keeps a tab's navigation), read live. */
export function useLive<S, A>(state: S, dispatch: (action: A) => void, reducer: (s: S, a: A) => S): Live<S, A> {
  const ref = useRef(state);
  ref.current = state;
  return {
    get: () => ref.current,
    dispatch: (action) => {
      ref.current = reducer(ref.current, action);
      dispatch(action);
    },
  };
}

/** A reducer of the component's own, read live. */
export function useLiveReducer<S, A>(reducer: (s: S, a: A) => S, initial: S): [S, Live<S, A>] {
  const [state, dispatch] = useReducer(reducer, initial);
  return [state, useLive(state, dispatch, reducer)];
}
