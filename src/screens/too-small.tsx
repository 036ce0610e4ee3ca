import { Text, useInput } from 'ink';
import { truncate, useTheme, width as textWidth } from '../components/theme/index.js';
import { MIN_SIZE } from './min-size.js';

/**
 * The one line shown instead of the dashboard in a terminal smaller than MIN_SIZE: the longest
 * wording that fits in `width` columns ("fleetdeck needs at least 60×15; this is 30×8").
 */
export function tooSmallLine(columns: number, rows: number, width: number): string {
  const need = `${MIN_SIZE.columns}×${MIN_SIZE.rows}`;
  const size = `${columns}×${rows}`;
  const wordings = [
    `fleetdeck needs at least ${need}; this is ${size} · q quits`,
    `fleetdeck needs at least ${need}; this is ${size}`,
    `fleetdeck needs ${need}; this is ${size}`,
    `needs ${need}; this is ${size}`,
    `needs ${need}; is ${size}`,
    `needs ${need}`,
  ];
  return wordings.find((w) => textWidth(w) <= width) ?? truncate(`needs ${need}`, width, '');
}

export interface TooSmallProps {
  columns: number;
  rows: number;
  onQuit: () => void;
}

/** The terminal is too small: one line saying so; q and Ctrl-C still quit. */
export function TooSmall({ columns, rows, onQuit }: TooSmallProps) {
  const theme = useTheme();
  useInput((input, key) => {
    if (input === 'q' || (key.ctrl && input === 'c')) onQuit();
  });
  // One column spare, as for the dashboard: some terminals wrap a line that fills the last one.
  return <Text wrap="truncate-end">{theme.text(tooSmallLine(columns, rows, Math.max(1, columns - 1)))}</Text>;
}
