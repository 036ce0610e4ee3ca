import { Box, Text } from 'ink';
import { truncate, useTheme, wrap } from '../../../components/theme/index.js';

/** A row in full: a title, short facts (kept when the text is cut), then paragraphs wrapped to the width. */
export interface Pane {
  title: string;
  /** One dim line under the title, e.g. "7 times, last 2m ago · namespace batch". */
  facts: string;
  paragraphs: string[];
}

/** The lines a pane takes at `width` under its title and facts, before any cap. */
export function paneLines(pane: Pane, width: number): string[] {
  return pane.paragraphs.flatMap((p) => wrap(p, Math.max(10, width - 2)));
}

/** Lines above the paragraphs: the title and the facts. */
export const PANE_HEAD = 2;

export interface RowPaneProps {
  pane: Pane;
  /** Lines available, title included; longer text is cut on the last line. */
  height: number;
  width: number;
}

/** Under a table: the selected row in full, wrapped rather than cut at the width. */
export function RowPane({ pane, height, width }: RowPaneProps) {
  const theme = useTheme();
  const all = paneLines({ ...pane, paragraphs: pane.paragraphs.map(theme.text) }, width);
  const room = Math.max(1, height - PANE_HEAD);
  const shown = all.length > room ? [...all.slice(0, room - 1), truncate(all.slice(room - 1).join(' '), width - 2, theme.ellipsis)] : all;
  return (
    <Box flexDirection="column">
      <Text bold color={theme.color('accent')}>
        {truncate(theme.text(pane.title), width, theme.ellipsis)}
      </Text>
      <Text dimColor>
        {'  '}
        {truncate(theme.text(pane.facts), width - 2, theme.ellipsis)}
      </Text>
      {shown.length > 0 ? <Text>{shown.map((line) => `  ${line}`).join('\n')}</Text> : null}
    </Box>
  );
}
