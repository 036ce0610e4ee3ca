import { Box, Text } from 'ink';
import { Spinner } from '../spinner/index.js';
import { truncate, useTheme, wrap } from '../theme/index.js';

/** What a banner says: progress (with a spinner), information, or an error. */
export type BannerKind = 'info' | 'progress' | 'error';

export interface BannerProps {
  kind: BannerKind;
  text: string;
  /** Columns available. */
  width: number;
}

/** At most this many lines: a path in a banner is worth a second line, not a third. */
export const BANNER_MAX_LINES = 2;

/** The lines a banner takes at `width` (after its two-column symbol). */
export function bannerLines(text: string, width: number, ellipsis = '…'): string[] {
  const lines = wrap(text, Math.max(1, width - 2));
  if (lines.length <= BANNER_MAX_LINES) return lines;
  const kept = lines.slice(0, BANNER_MAX_LINES);
  kept[BANNER_MAX_LINES - 1] = truncate(
    `${kept[BANNER_MAX_LINES - 1] ?? ''} ${lines.slice(BANNER_MAX_LINES).join(' ')}`,
    Math.max(1, width - 2),
    ellipsis,
  );
  return kept;
}

/** About fleetdeck itself: progress with a spinner, info, or an error in red. Wraps to two lines at most. */
export function Banner({ kind, text, width }: BannerProps) {
  const theme = useTheme();
  const [first = '', ...rest] = bannerLines(theme.text(text), width, theme.ellipsis);
  const color = kind === 'error' ? theme.color('fail') : undefined;
  const head =
    kind === 'progress' ? (
      <Spinner />
    ) : (
      <Text color={kind === 'error' ? theme.color('fail') : theme.color('info')}>
        {kind === 'error' ? (theme.ascii ? 'x' : '✗') : theme.ascii ? '*' : '•'}
      </Text>
    );
  return (
    <Box flexDirection="column">
      <Text>
        {head}{' '}
        <Text color={color} bold={kind === 'error'}>
          {first}
        </Text>
      </Text>
      {rest.length > 0 ? <Text color={color}>{rest.map((line) => `  ${line}`).join('\n')}</Text> : null}
    </Box>
  );
}
