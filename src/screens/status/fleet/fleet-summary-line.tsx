import { Text } from 'ink';
import { CheckSymbol } from '../../../components/checklist/index.js';
import { stateColor, truncate, useTheme, width as textWidth } from '../../../components/theme/index.js';
import type { FleetSummary } from './fleet-summary.js';

export interface FleetSummaryLineProps {
  title: string;
  summary: FleetSummary;
  /** Dim text at the end, e.g. "f: checklist". */
  hint?: string;
  width: number;
}

/** "✗ Fleet elotl on kind-cp: 2 failed · 1 warning   f: checklist" — always one line. */
export function FleetSummaryLine({ title, summary, hint, width }: FleetSummaryLineProps) {
  const theme = useTheme();
  const symbolWidth = theme.ascii ? 4 : 1;
  const tail = hint ? `   ${theme.text(hint)}` : '';
  const room = Math.max(1, width - symbolWidth - 1 - textWidth(tail));
  const head = truncate(theme.text(`${title}: `), room, theme.ellipsis);
  const text = truncate(theme.text(summary.text), Math.max(0, room - textWidth(head)), theme.ellipsis);
  const strong = summary.state === 'fail' || summary.state === 'warn';
  return (
    <Text wrap="truncate-end">
      <CheckSymbol state={summary.state} /> <Text bold>{head}</Text>
      <Text bold={strong} color={theme.color(stateColor(summary.state))}>
        {text}
      </Text>
      {tail ? <Text dimColor>{tail}</Text> : null}
    </Text>
  );
}
