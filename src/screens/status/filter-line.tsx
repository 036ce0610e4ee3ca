import { Text } from 'ink';
import { useTheme } from '../../components/theme/index.js';

export interface FilterLineProps {
  filter: string;
  editing: boolean;
  shown: number;
  total: number;
}

/** "/ prod█  2 of 5" while typing; "filter prod  2 of 5 · esc clears" once kept. */
export function FilterLine({ filter, editing, shown, total }: FilterLineProps) {
  const theme = useTheme();
  const counts = `${shown} of ${total}`;
  if (editing) {
    return (
      <Text>
        <Text bold color={theme.color('key')}>
          /
        </Text>{' '}
        {theme.text(filter)}
        <Text color={theme.color('accent')}>{theme.ascii ? '_' : '█'}</Text>
        <Text dimColor>
          {'  '}
          {counts}
        </Text>
      </Text>
    );
  }
  return (
    <Text dimColor>
      filter <Text bold>{theme.text(filter)}</Text>
      {`  ${counts} ${theme.separator} esc clears`}
    </Text>
  );
}
