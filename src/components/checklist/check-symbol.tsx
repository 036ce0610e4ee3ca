import { Text } from 'ink';
import type { CheckState } from '../../checklist/checklist.js';
import { Spinner } from '../spinner/index.js';
import { stateColor, useTheme } from '../theme/index.js';

/** As wide as the other ASCII symbols ("[ok]"), so columns stay aligned. */
const ASCII_RUNNING = ['[. ]', '[..]', '[ .]', '[  ]'];

/** The state of one item: a symbol in the state's color, a spinner while running. */
export function CheckSymbol({ state }: { state: CheckState }) {
  const theme = useTheme();
  if (state === 'running') return <Spinner {...(theme.ascii ? { frames: ASCII_RUNNING } : {})} />;
  return (
    <Text color={theme.color(stateColor(state))} dimColor={state === 'pending'}>
      {theme.symbol(state)}
    </Text>
  );
}
