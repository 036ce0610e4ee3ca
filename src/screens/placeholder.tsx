import { Box, Text } from 'ink';
import { Checklist } from '../components/checklist/index.js';
import { truncate, useTheme, wrap } from '../components/theme/index.js';
import type { CheckItem } from '../checklist/checklist.js';

/** What a screen is about: a sentence and its steps, shown as a pending checklist. */
export interface About {
  text: string;
  steps: string[];
}

export interface PlaceholderProps {
  title: string;
  about: About;
  width: number;
  /** Lines available: the description is cut and the steps fold ("↓ 3 more lines") to fit. */
  height: number;
  /** A line under the description (e.g. what read-only mode does here). */
  note?: string | undefined;
  /** Lines at the bottom, always in sight (e.g. what the keys start). */
  lines?: readonly string[];
}

/** Lines of the steps kept in sight however short the screen ("↓ n more lines" the last of them). */
const MIN_STEP_LINES = 3;

/**
 * What a screen does, with its steps as a pending checklist, and the lines saying what its keys
 * start. The lines always show; the description and the steps give way in a short terminal.
 */
export function Placeholder({ title, about, width, height, note, lines = [] }: PlaceholderProps) {
  const theme = useTheme();
  const items: CheckItem[] = about.steps.map((label, i) => ({ id: `${title}/${i}`, label, state: 'pending' }));
  const keys = lines.flatMap((line) => wrap(theme.text(line), width));
  // The title, the note, the gap above the steps, the keys with the gap above them.
  const fixed = 1 + (note ? 1 : 0) + 1 + (keys.length ? keys.length + 1 : 0);
  const text = wrap(theme.text(about.text), width);
  // The steps keep a few lines; the description gets what is left, and gives way first.
  const avail = height - fixed;
  const textRoom = avail > MIN_STEP_LINES ? Math.min(text.length, avail - MIN_STEP_LINES) : 0;
  const shownText = text.slice(0, textRoom);
  if (textRoom > 0 && shownText.length < text.length) {
    shownText[textRoom - 1] = truncate(`${shownText[textRoom - 1] ?? ''} ${text[textRoom] ?? ''}`, width, theme.ellipsis);
  }
  const stepRoom = avail - shownText.length;
  return (
    <Box flexDirection="column">
      <Text bold color={theme.color('accent')}>
        {title}
      </Text>
      {shownText.map((line, i) => (
        <Text key={i}>{line}</Text>
      ))}
      {note ? <Text dimColor>{truncate(theme.text(note), width, theme.ellipsis)}</Text> : null}
      {stepRoom > 0 ? (
        <Box marginTop={1}>
          <Checklist items={items} width={width} height={stepRoom} />
        </Box>
      ) : null}
      {keys.length ? (
        <Box marginTop={1} flexDirection="column">
          {keys.map((line, i) => (
            <Text key={i}>{line}</Text>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}
