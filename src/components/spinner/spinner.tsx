import { Text, useAnimation } from 'ink';
import { useTheme } from '../theme/index.js';

export const UNICODE_SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
export const ASCII_SPINNER = ['-', '\\', '|', '/'];

export interface SpinnerProps {
  /** Text after the spinner. */
  label?: string;
  /** Frames to cycle through; default: braille dots, or - \ | / in ASCII mode. */
  frames?: readonly string[];
}

/**
 * A spinner driven by Ink's `useAnimation`, which runs every animation from one
 * shared timer: ten running checks cost one redraw per tick, not ten.
 * Honours the ASCII and color settings.
 */
export function Spinner({ label, frames }: SpinnerProps) {
  const theme = useTheme();
  const { frame } = useAnimation({ interval: 120 });
  const list = frames ?? (theme.ascii ? ASCII_SPINNER : UNICODE_SPINNER);
  return (
    <Text>
      <Text color={theme.color('running')}>{list[frame % list.length]}</Text>
      {label ? ` ${theme.text(label)}` : ''}
    </Text>
  );
}
