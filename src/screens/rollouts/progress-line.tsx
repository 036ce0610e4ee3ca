import { defaultTheme, extendTheme, ProgressBar, ThemeProvider } from '@inkjs/ui';
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { truncate, useTheme, width as textWidth } from '../../components/theme/index.js';

export interface ProgressLineProps {
  /** Done, from 0 to 1. */
  fraction: number;
  /** After the bar, e.g. "2/6 nodes done · ETA 3m10s". */
  label: string;
  width: number;
}

/**
 * An overall progress bar (@inkjs/ui's ProgressBar) with its percentage and a label, on one
 * line: in ASCII mode the bar is `#` and `-`, without colors it is not tinted.
 */
export function ProgressLine({ fraction, label, width }: ProgressLineProps) {
  const theme = useTheme();
  const barTheme = useMemo(
    () =>
      extendTheme(defaultTheme, {
        components: {
          ProgressBar: {
            styles: {
              completed: () => ({ color: theme.color('running') }),
            },
            config: () =>
              theme.ascii ? { completedCharacter: '#', remainingCharacter: '-' } : { completedCharacter: '█', remainingCharacter: '░' },
          },
        },
      }),
    [theme],
  );
  const value = Math.round(Math.max(0, Math.min(1, fraction)) * 100);
  const percent = `${String(value).padStart(3)}%`;
  const text = truncate(theme.text(label), Math.max(0, width - 10 - percent.length - 3), theme.ellipsis);
  const barWidth = Math.max(10, Math.min(40, width - textWidth(text) - percent.length - 3));
  return (
    <Box>
      <Box width={barWidth}>
        <ThemeProvider theme={barTheme}>
          <ProgressBar value={value} />
        </ThemeProvider>
      </Box>
      <Text>
        {' '}
        {percent} {text}
      </Text>
    </Box>
  );
}
