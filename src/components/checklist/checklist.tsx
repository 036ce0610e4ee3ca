import { Box } from 'ink';
import { checklistLines, type CheckItem } from '../../checklist/checklist.js';
import { ChecklistRow } from './checklist-row.js';

export interface ChecklistProps {
  items: readonly CheckItem[];
  /** Columns available; lines are truncated, never wrapped. Default 80. */
  width?: number;
}

/**
 * The list every screen is made of: one line per item (symbol, label, detail),
 * the hint on the line below, children indented.
 */
export function Checklist({ items, width = 80 }: ChecklistProps) {
  return (
    <Box flexDirection="column">
      {checklistLines(items).map((line) => (
        <ChecklistRow key={`${line.item.id}:${line.kind}`} line={line} width={width} />
      ))}
    </Box>
  );
}
