import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { ChecklistRow } from '../../components/checklist/index.js';
import { fit, truncate, useTheme } from '../../components/theme/index.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { detailLines, FIELD_LABEL_WIDTH, type DetailLine } from './detail-lines.js';
import { useDetailScroll } from './use-detail-scroll.js';

export interface ContextDetailProps {
  store: FleetStore;
  name: string;
  height: number;
  width: number;
  /** Keys scroll this view (false while help is open). */
  isActive: boolean;
}

/** Everything known about one context, live; scrolls when taller than the screen. */
export function ContextDetail({ store, name, height, width, isActive }: ContextDetailProps) {
  const theme = useTheme();
  const ctx = useStore(store, (s) => s.contexts[name]);
  const lines = ctx ? detailLines(ctx, width, { ascii: theme.ascii }) : [];
  const overflow = lines.length > height;
  const view = overflow ? Math.max(1, height - 1) : height;
  const offset = useDetailScroll(lines.length, view, isActive);

  if (!ctx) {
    return (
      <Box flexDirection="column">
        <Text color={theme.color('warn')}>{theme.text(`Context ${name} is no longer in the kubeconfig.`)}</Text>
        <Text dimColor>press esc to go back</Text>
      </Box>
    );
  }
  const shown = lines.slice(offset, offset + view);
  return (
    <Box flexDirection="column">
      {shown.map((line, i) => (
        <DetailRow key={offset + i} line={line} width={width} />
      ))}
      {overflow ? (
        <Text dimColor>{theme.text(`lines ${offset + 1}–${offset + shown.length} of ${lines.length} ${theme.separator} j/k scroll`)}</Text>
      ) : null}
    </Box>
  );
}

function DetailRow({ line, width }: { line: DetailLine; width: number }) {
  const theme = useTheme();
  switch (line.kind) {
    case 'title':
      return (
        <Text>
          <Text bold color={theme.color('accent')}>
            {truncate(theme.text(line.text), width - 2, theme.ellipsis)}
          </Text>
          {line.sub ? <Text dimColor>{`  ${theme.text(line.sub)}`}</Text> : null}
        </Text>
      );
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
                <Text dimColor>{fit(f.label, FIELD_LABEL_WIDTH)}</Text>
                <Text color={f.tone ? theme.color(f.tone) : undefined}>
                  {last ? truncate(value, valueWidth, theme.ellipsis) : fit(value, valueWidth, theme.ellipsis)}
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
          <Text dimColor>{fit(line.first ? 'Last error' : '', FIELD_LABEL_WIDTH)}</Text>
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
  }
}
