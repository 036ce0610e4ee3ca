export { FitLines, type FitLinesProps } from './fit-lines.js';
export { fitWindow, viewSize, type FitOptions, type FitWindow } from './fit-window.js';
