/** What the log view keeps of its own: where it is scrolled to, the search being typed, the Events pane. The lines are the feed's. */
import type { LogLine } from '../../store/logs.js';

export interface LogViewNav {
  /** The bottom line's seq; undefined: following the newest line. */
  anchor?: number;
  /** The search being typed after `/`; undefined when not typing. */
  typing?: string;
  /** The Events pane shown (undefined: as the width suggests). */
  events?: boolean;
}

export type LogViewAction =
  /** The bottom line (undefined: the newest, following). */
  | { type: 'anchor'; seq: number | undefined }
  /** The search being typed (undefined: not typing). */
  | { type: 'typing'; text: string | undefined }
  | { type: 'events'; shown: boolean };

export const initialLogViewNav: LogViewNav = {};

export function logViewReducer(nav: LogViewNav, action: LogViewAction): LogViewNav {
  const { anchor, typing, ...rest } = nav;
  switch (action.type) {
    case 'anchor':
      return { ...rest, ...(typing !== undefined ? { typing } : {}), ...(action.seq !== undefined ? { anchor: action.seq } : {}) };
    case 'typing':
      return { ...rest, ...(anchor !== undefined ? { anchor } : {}), ...(action.text !== undefined ? { typing: action.text } : {}) };
    case 'events':
      return { ...nav, events: action.shown };
  }
}

/**
 * The anchor that puts line index `i` at the bottom: never fewer lines than a page above it;
 * the newest line means following again (undefined).
 */
export function anchorAt(lines: readonly LogLine[], page: number, i: number): number | undefined {
  const last = lines.length - 1;
  const at = Math.max(Math.min(page - 1, last), Math.min(i, last));
  return at >= last ? undefined : lines[at]?.seq;
}
