import { Box, Text } from 'ink';
import { Fragment, type ReactNode } from 'react';
import { useTheme } from '../theme/index.js';
import { fitWindow, type FitOptions, type FitWindow } from './fit-window.js';

export interface FitLinesProps<Line> extends FitOptions {
  lines: readonly Line[];
  /** Lines available, the marker included. */
  height: number;
  /** One line; `index` is its place in `lines`. */
  render: (line: Line, index: number) => ReactNode;
  /** A stable key per line; default its index. */
  keyOf?: (line: Line, index: number) => string | number;
  /**
   * The dim line said for the lines left out (above them when the end is kept, else below);
   * undefined: no marker. Shown only when they overflow a height of at least one line.
   */
  marker?: (window: FitWindow) => string | undefined;
}

/** Lines cut to a height: those that fit from the kept end (or scrolled by `offset`), and a marker for the rest. */
export function FitLines<Line>({ lines, height, render, keyOf, marker, ...options }: FitLinesProps<Line>) {
  const theme = useTheme();
  const window = fitWindow(lines.length, height, options);
  const text = window.overflow && height > 0 ? marker?.(window) : undefined;
  const markerLine = text !== undefined ? <Text dimColor>{theme.text(text)}</Text> : null;
  const above = options.keep === 'end';
  return (
    <Box flexDirection="column">
      {above ? markerLine : null}
      {lines.slice(window.start, window.end).map((line, i) => {
        const index = window.start + i;
        return <Fragment key={keyOf ? keyOf(line, index) : index}>{render(line, index)}</Fragment>;
      })}
      {above ? null : markerLine}
    </Box>
  );
}
