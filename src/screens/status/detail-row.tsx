import { Text } from 'ink';
import { ChecklistRow } from '../../components/checklist/index.js';
import { fitCell, truncate, useTheme } from '../../components/theme/index.js';
import { FIELD_LABEL_WIDTH, type DetailLine } from './detail-lines.js';

/** One line of a scrolling page (the Info section, the fleet checklist), cut to `width`. */
export function DetailRow({ line, width }: { line: DetailLine; width: number }) {
  const theme = useTheme();
  switch (line.kind) {
    case 'fields': {
      const cell = line.fields.length > 1 ? Math.floor((width - 2) / line.fields.length) : width;
      const valueWidth = Math.max(1, cell - FIELD_LABEL_WIDTH);
      return (
        <Text>
          {line.fields.map((f, i) => {
            const last = i === line.fields.length - 1;
            const value = theme.text(f.value);
            return (
              <Text key={f.label}>
                {i > 0 ? '  ' : ''}
                <Text dimColor>{fitCell(f.label, FIELD_LABEL_WIDTH)}</Text>
                <Text color={f.tone ? theme.color(f.tone) : undefined}>
                  {last ? truncate(value, valueWidth, theme.ellipsis) : fitCell(value, valueWidth, theme.ellipsis)}
                </Text>
              </Text>
            );
          })}
        </Text>
      );
    }
    case 'error':
      return (
        <Text>
          <Text dimColor>{fitCell(line.first ? 'Last error' : '', FIELD_LABEL_WIDTH)}</Text>
          <Text color={theme.color('fail')}>{theme.text(line.text)}</Text>
        </Text>
      );
    case 'heading':
      return <Text bold>{theme.text(line.text)}</Text>;
    case 'blank':
      return <Text> </Text>;
    case 'check':
      return <ChecklistRow line={line.line} width={width} />;
    case 'more':
      return (
        <Text dimColor>
          {' '.repeat(line.indent)}
          {theme.text(line.text)}
        </Text>
      );
    case 'text':
      return <Text bold={line.bold ?? false}>{truncate(theme.text(line.text), width, theme.ellipsis)}</Text>;
  }
}
