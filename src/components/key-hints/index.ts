export { KeyHints, type KeyHint, type KeyHintsProps } from './key-hints.js';
