import { Box, Text } from 'ink';
import { Checklist, type HiddenLines } from '../../components/checklist/index.js';
import { useTheme, wrap } from '../../components/theme/index.js';
import type { CheckItem } from '../../checklist/checklist.js';

import type { PrepareState } from '../../store/prepare.js';

export interface PrepareNodesProps {
  state: PrepareState;
  width: number;
  /** Lines the page may use. */
  height: number;
}

/** "Ready to join: no failures", or "2 failures: fix them before this host joins" (warnings counted too). */
export function prepareSummary(items: readonly CheckItem[]): string {
  const fails = items.filter((i) => i.state === 'fail').length;
  const warns = items.filter((i) => i.state === 'warn').length;
  const w = warns ? `${warns} warning${warns === 1 ? '' : 's'}` : '';
  if (fails === 0) return `Ready to join: no failures${w ? ` (${w})` : ''}`;
  return `${fails} failure${fails === 1 ? '' : 's'}${w ? `, ${w}` : ''}: fix them before this host joins a cluster`;
}

/** Below the checks that do not fit, once the passed ones folded into one line. */
const morePreflight = ({ lines }: HiddenLines) => `↓ ${lines} more line${lines === 1 ? '' : 's'} (fleetdeck preflight prints them all)`;

/** The page: a title, the checks (a spinner while they run), the summary. */
export function PrepareNodesPage({ state, width, height }: PrepareNodesProps) {
  const theme = useTheme();
  const intro = wrap(
    theme.text('Preflight checks of this host before it becomes a node (the API server is the current context’s).'),
    width,
  );
  const summary = state.status === 'done' ? wrap(theme.text(prepareSummary(state.items)), width) : [];
  // Title, intro, the gap, the summary's lines.
  const rows = Math.max(3, height - 1 - intro.length - 1 - summary.length);
  return (
    <Box flexDirection="column">
      <Text bold color={theme.color('accent')}>
        Prepare nodes
      </Text>
      {intro.map((line, i) => (
        <Text key={i} dimColor>
          {line}
        </Text>
      ))}
      <Box marginTop={1} flexDirection="column">
        {state.status === 'running' ? (
          <Checklist items={[{ id: 'preflight', label: 'Checking this host', state: 'running' }]} width={width} />
        ) : state.status === 'error' ? (
          <Checklist
            items={[{ id: 'preflight', label: 'Preflight checks', state: 'fail', detail: state.error, hint: 'press p to run them again' }]}
            width={width}
          />
        ) : (
          <>
            <Checklist items={state.items} width={width} height={rows} fold="passed" more={morePreflight} />
            <Text bold>{summary.join('\n')}</Text>
          </>
        )}
      </Box>
    </Box>
  );
}
