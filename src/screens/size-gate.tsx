import { useWindowSize } from 'ink';
import { Activity, type ReactNode } from 'react';
import { tooSmall } from './min-size.js';
import { TooSmall } from './too-small.js';

export interface SizeGateProps {
  /** q or Ctrl-C on the one line. */
  onQuit: () => void;
  /** The screen, drawn at the terminal's size. */
  children: (columns: number, rows: number) => ReactNode;
}

/**
 * Below the minimum size, one line says so; the screen stays mounted but hidden (an Activity:
 * its state kept, its keys and timers paused) and comes back as it was when the terminal grows.
 * The dashboard and the commands that draw a screen of their own (the install wizard) use it.
 */
export function SizeGate({ onQuit, children }: SizeGateProps) {
  const { columns, rows } = useWindowSize();
  const small = tooSmall(columns, rows);
  return (
    <>
      {small ? <TooSmall columns={columns} rows={rows} onQuit={onQuit} /> : null}
      {/* The size comes as arguments: the tree shown again is drawn at the size it is shown at. */}
      <Activity mode={small ? 'hidden' : 'visible'}>{children(columns, rows)}</Activity>
    </>
  );
}
