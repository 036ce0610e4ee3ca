export { UiProvider, useUiSettings, colorAllowed, type UiSettings } from './ui-context.js';
export { useTheme, makeTheme, stateColor, type Theme, type ColorRole } from './use-theme.js';
export { truncate, truncateMiddle, padEnd, padStart, fitCell, wrap, width } from './text.js';
export { toAsciiIf } from './ascii.js';
