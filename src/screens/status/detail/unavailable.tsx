import { Box, Text } from 'ink';
import { SECTIONS_ONLY_KEYS } from '../keys.js';
import { useStatusKeys } from '../use-status-keys.js';
import { useTheme, wrap } from '../../../components/theme/index.js';

export interface UnavailableProps {
  /** Its keys (the sections', esc) listen. */
  isActive: boolean;
  /** Set when listing is forbidden: what permission is missing. */
  forbidden?: string | undefined;
  /** What is being listed, e.g. "pods". */
  what: string;
  width: number;
}

/** Why a section has no rows: listing is forbidden (and which permission is missing), or still under way. */
export function Unavailable({ forbidden, what, width, isActive }: UnavailableProps) {
  const theme = useTheme();
  useStatusKeys(SECTIONS_ONLY_KEYS, () => ({}), isActive);
  if (forbidden === undefined) return <Text dimColor>{theme.text(`listing ${what}…`)}</Text>;
  return (
    <Box flexDirection="column">
      <Text color={theme.color('warn')} bold>
        {theme.text(`${theme.symbol('warn')} Cannot list ${what}: missing permission`)}
      </Text>
      <Text>
        {wrap(theme.text(forbidden), Math.max(10, width - 2))
          .map((line) => `  ${line}`)
          .join('\n')}
      </Text>
    </Box>
  );
}
