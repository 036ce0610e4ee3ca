import { Text } from 'ink';
import type { ChecklistLine } from '../../checklist/checklist.js';
import { formatDuration } from '../../duration.js';
import { stateColor, truncate, useTheme, width as textWidth } from '../theme/index.js';
import { CheckSymbol } from './check-symbol.js';

export interface ChecklistRowProps {
  line: ChecklistLine;
  /** Columns available; the line is cut with an ellipsis rather than wrapped. */
  width?: number;
}

/** One line of a checklist: "<symbol> label  detail", or the hint under it. */
export function ChecklistRow({ line, width = 80 }: ChecklistRowProps) {
  const theme = useTheme();
  const { item } = line;
  const symbolWidth = theme.ascii ? 4 : 1;
  const indent = '  '.repeat(line.depth);

  if (line.kind === 'hint') {
    const pad = `${indent}${' '.repeat(symbolWidth + 1)}`;
    const arrow = theme.ascii ? '-> ' : '↳ ';
    return (
      <Text dimColor wrap="truncate-end">
        {pad}
        {truncate(theme.text(`${arrow}${item.hint ?? ''}`), width - textWidth(pad), theme.ellipsis)}
      </Text>
    );
  }

  const elapsed = item.elapsedMs !== undefined ? `  ${formatDuration(item.elapsedMs)}` : '';
  const room = Math.max(0, width - indent.length - symbolWidth - 1 - elapsed.length);
  const label = truncate(theme.text(item.label), room, theme.ellipsis);
  const detailRoom = room - textWidth(label) - 2;
  const detail = item.detail !== undefined && detailRoom > 0 ? truncate(theme.text(item.detail), detailRoom, theme.ellipsis) : '';
  const strong = item.state === 'fail' || item.state === 'warn';
  return (
    <Text wrap="truncate-end">
      {indent}
      <CheckSymbol state={item.state} /> <Text bold={strong && line.depth === 0}>{label}</Text>
      {detail ? (
        <Text color={strong ? theme.color(stateColor(item.state)) : undefined} dimColor={!strong}>
          {'  '}
          {detail}
        </Text>
      ) : null}
      {elapsed ? <Text dimColor>{elapsed}</Text> : null}
    </Text>
  );
}
