export {
  GateProvider,
  type GateView,
  KeyBar,
  KeyBarProvider,
  type KeyPublication,
  useGate,
  useKeyBar,
  useKeyBarContext,
} from './key-bar.js';
export { type KeyName, isKey, keyLabel, printable } from './key-names.js';
export { actionFor, dangerOf, helpOf, hintsOf, type KeyAction, keyLine, keysLabel, type KeyTable } from './key-table.js';
export { cursorKeys, type CursorMove, moveCursor } from './cursor-keys.js';
export { splitKeys } from './split-keys.js';
export { type KeyActionsOptions, type KeyActionsResult, useKeyActions } from './use-key-actions.js';
export { type Live, useLive, useLiveReducer } from './use-live.js';
export { pagedKeys, yesNo } from './pages.js';
