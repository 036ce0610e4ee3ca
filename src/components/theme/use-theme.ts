import { useMemo } from 'react';
import { checkSymbol, toAscii, type CheckState } from '../../checklist/checklist.js';
import { useUiSettings } from './ui-context.js';

/** Meaning-named colors, so screens never pick raw colors. */
const PALETTE = {
  ok: 'green',
  warn: 'yellow',
  fail: 'red',
  running: 'cyan',
  info: 'blue',
  pending: 'gray',
  accent: 'cyan',
  key: 'cyan',
  muted: 'gray',
} as const;

export type ColorRole = keyof typeof PALETTE;

export interface Theme {
  ascii: boolean;
  colorOn: boolean;
  /** The color for a role, or undefined when colors are off. */
  color: (role: ColorRole) => string | undefined;
  /** Text made safe for the terminal (ASCII only in ASCII mode). */
  text: (s: string) => string;
  symbol: (state: CheckState) => string;
  ellipsis: string;
  /** Marks the selected row. */
  pointer: string;
  separator: string;
}

export function makeTheme(ascii: boolean, colorOn: boolean): Theme {
  return {
    ascii,
    colorOn,
    color: (role) => (colorOn ? PALETTE[role] : undefined),
    text: (s) => (ascii ? toAscii(s) : s),
    symbol: (state) => checkSymbol(state, { ascii }),
    ellipsis: ascii ? '~' : '…',
    pointer: ascii ? '>' : '❯',
    separator: ascii ? '|' : '·',
  };
}

export function stateColor(state: CheckState): ColorRole {
  return state === 'ok'
    ? 'ok'
    : state === 'warn'
      ? 'warn'
      : state === 'fail'
        ? 'fail'
        : state === 'running'
          ? 'running'
          : state === 'info'
            ? 'info'
            : 'pending';
}

export function useTheme(): Theme {
  const { ascii, color } = useUiSettings();
  return useMemo(() => makeTheme(ascii, color), [ascii, color]);
}
