export { HelpOverlay, type HelpOverlayProps, type HelpSection } from './help-overlay.js';
