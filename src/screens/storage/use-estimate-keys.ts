import { useInput, type Key } from 'ink';
import { useRef } from 'react';
import type { Catalogue } from '../../storage/catalogue.js';
import type { Pools } from '../../storage/estimate.js';
import { splitKeys } from '../../components/key-actions/index.js';
import { enabledVolumes, firstInvalid, FORM_PAGES, formReducer, type EstimateForm, type FormAction } from './estimate-form.js';

export interface EstimateKeysOptions {
  catalogue: Catalogue;
  form: EstimateForm;
  dispatch: (action: FormAction) => void;
  /** The volume groups the pools page offers. */
  options: readonly string[];
  onNextCatalogue?: (() => void) | undefined;
  onClose: (done: boolean) => void;
}

/**
 * The dialogue's keys: Enter goes on, Esc goes back a page (closes on the first), Ctrl-C
 * closes; on the features page space toggles and c switches catalogue; on the pools page ←/→
 * change the pool; on the sizes page the keys are the text of the focused field.
 */
export function useEstimateKeys({ catalogue, form, dispatch: send, options, onNextCatalogue, onClose }: EstimateKeysOptions): void {
  // The form as of the last key, so the second key of a chunk sees what the first did.
  const live = useRef(form);
  live.current = form;
  const dispatch = (action: FormAction) => {
    live.current = formReducer(live.current, action);
    send(action);
  };
  const rowCount = (f: EstimateForm) =>
    f.page === 'features' ? catalogue.features.length : f.page === 'pools' ? 2 : enabledVolumes(catalogue, f.features).length;

  useInput((chunk, chunkKey) => {
    for (const [input, key] of splitKeys(chunk, chunkKey)) handle(live.current, input, key);
  });

  function handle(f: EstimateForm, input: string, key: Key): void {
    if (key.ctrl && input === 'c') return onClose(false);
    if (key.escape) {
      if (f.page === FORM_PAGES[0]) return onClose(false);
      return dispatch({ type: 'back' });
    }
    const count = rowCount(f);
    const typing = f.page === 'sizes';
    if (key.upArrow || (!typing && input === 'k')) return dispatch({ type: 'focus', delta: -1, count });
    if (key.downArrow || (!typing && input === 'j') || key.tab) return dispatch({ type: 'focus', delta: 1, count });
    if (f.page === 'features') {
      const feature = catalogue.features[Math.min(f.focus, count - 1)];
      if (input === ' ' && feature) dispatch({ type: 'toggleFeature', name: feature.name });
      else if (input === 'c' && onNextCatalogue) onNextCatalogue();
      else if (key.return) dispatch({ type: 'next' });
      return;
    }
    if (f.page === 'pools') {
      const which: keyof Pools = f.focus === 0 ? 'shared' : 'unshared';
      if (key.rightArrow || input === 'l' || input === ' ') dispatch({ type: 'pool', which, options, delta: 1 });
      else if (key.leftArrow || input === 'h') dispatch({ type: 'pool', which, options, delta: -1 });
      else if (key.return) dispatch({ type: 'next' });
      return;
    }
    // Sizes: the keys are the text of the focused field.
    const shown = enabledVolumes(catalogue, f.features);
    const volume = shown[Math.min(f.focus, shown.length - 1)];
    if (key.return) {
      if (f.focus < shown.length - 1) return dispatch({ type: 'focus', delta: 1, count: shown.length });
      const bad = firstInvalid(f, shown);
      if (bad) {
        const at = shown.findIndex((v) => v.name === bad.volume);
        return dispatch({ type: 'focus', delta: at - f.focus, count: shown.length });
      }
      dispatch({ type: 'done' });
      return onClose(true);
    }
    if (!volume) return;
    if (key.backspace || key.delete) dispatch({ type: 'backspace', volume: volume.name });
    else if (key.ctrl && input === 'u') dispatch({ type: 'clear', volume: volume.name });
    else if (!key.ctrl && !key.meta && input && [...input].every((ch) => (ch.codePointAt(0) ?? 0) >= 0x20 && ch !== '\u007f')) {
      dispatch({ type: 'type', volume: volume.name, text: input });
    }
  }
}
