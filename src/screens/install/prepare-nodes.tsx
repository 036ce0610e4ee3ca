import { Box, Text } from 'ink';
import { Checklist, ChecklistRow } from '../../components/checklist/index.js';
import { useTheme, wrap } from '../../components/theme/index.js';
import { checklistLines, type CheckItem } from '../../checklist/checklist.js';

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

/**
 * The checks within `rows` lines: all of them when they fit; else the passed rows (√ and •)
 * fold into one line so the failures and warnings with their hints stay in sight; if still too
 * tall, the last lines give way to a "↓ n more lines" line.
 */
export function FittedPreflight({ items, width, rows }: { items: readonly CheckItem[]; width: number; rows: number }) {
  const theme = useTheme();
  const budget = Math.max(3, rows);
  if (checklistLines(items).length <= budget) return <Checklist items={items} width={width} />;
  const passed = items.filter((i) => i.state === 'ok' || i.state === 'info');
  const attention = items.filter((i) => i.state !== 'ok' && i.state !== 'info');
  const folded: CheckItem[] = [
    ...attention,
    ...(passed.length
      ? [
          {
            id: 'passed',
            label: `${passed.length} other check${passed.length === 1 ? '' : 's'} passed`,
            state: 'ok' as const,
            detail: passed.map((p) => p.label).join(', '),
          },
        ]
      : []),
  ];
  const lines = checklistLines(folded);
  if (lines.length <= budget) return <Checklist items={folded} width={width} />;
  const shown = lines.slice(0, budget - 1);
  const hidden = lines.length - shown.length;
  return (
    <Box flexDirection="column">
      {shown.map((line) => (
        <ChecklistRow key={`${line.item.id}:${line.kind}`} line={line} width={width} />
      ))}
      <Text dimColor>{theme.text(`↓ ${hidden} more line${hidden === 1 ? '' : 's'} (fleetdeck preflight prints them all)`)}</Text>
    </Box>
  );
}

/** The page: a title, the checks (a spinner while they run), the summary. */
export function PrepareNodesPage({ state, width, height }: PrepareNodesProps) {
  const theme = useTheme();
  const intro = wrap(
    theme.text('Preflight checks of this host before it becomes a node (the API server is the current context’s).'),
    width,
  );
  // Title, intro, the gap, the summary line.
  const rows = Math.max(3, height - 1 - intro.length - 1 - 1);
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
            <FittedPreflight items={state.items} width={width} rows={rows} />
            <Text bold>{theme.text(prepareSummary(state.items))}</Text>
          </>
        )}
      </Box>
    </Box>
  );
}
