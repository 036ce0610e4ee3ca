export { ContextBar, type ContextBarProps } from './context-bar.js';
export { shortPath, filesLabel } from './short-path.js';
