import { Box, Text } from 'ink';
import { FitLines } from '../fit/index.js';
import { padEnd, truncate, useTheme } from '../theme/index.js';
import { boxFits, type CompactLine, compactLines, GROUP_GAP, type HelpSection, keyColumn } from './help-layout.js';

export type { HelpSection } from './help-layout.js';

export interface HelpOverlayProps {
  sections: readonly HelpSection[];
  /** Shown at the bottom of the box. */
  footer?: string;
  /** Columns available. Default 80. */
  width?: number;
  /** Lines available. Default: as many as the box needs. */
  height?: number;
}

/**
 * Every key, grouped side by side, in a framed box; in a terminal too small for the box, each
 * group's keys packed on a few lines, and what still does not fit left out with "↓ n more lines".
 */
export function HelpOverlay({ sections, footer = 'press ? or esc to close', width = 80, height }: HelpOverlayProps) {
  const theme = useTheme();
  if (height === undefined || boxFits(sections, width, height, theme.text)) return <HelpBox sections={sections} footer={footer} />;
  const lines = compactLines(sections, width, theme.text, ` ${theme.separator} `);
  return (
    <FitLines
      lines={lines}
      height={height}
      render={(line) => <CompactRow line={line} width={width} />}
      marker={({ total, end, start }) => `↓ ${total - (end - start)} more lines: a taller terminal shows every key`}
    />
  );
}

function CompactRow({ line, width }: { line: CompactLine; width: number }) {
  const theme = useTheme();
  if (line.kind === 'title') {
    return (
      <Text bold color={theme.color('accent')}>
        {truncate(theme.text(line.text), width, theme.ellipsis)}
      </Text>
    );
  }
  return (
    <Text wrap="truncate-end">
      {line.keys.map((k, i) => (
        <Text key={`${k.key}:${k.label}`}>
          {i > 0 ? <Text dimColor>{` ${theme.separator} `}</Text> : null}
          <Text bold color={theme.color('key')}>
            {theme.text(k.key)}
          </Text>{' '}
          {theme.text(k.label)}
        </Text>
      ))}
    </Text>
  );
}

function HelpBox({ sections, footer }: { sections: readonly HelpSection[]; footer: string }) {
  const theme = useTheme();
  return (
    <Box
      flexDirection="column"
      borderStyle={theme.ascii ? 'classic' : 'round'}
      borderColor={theme.color('accent')}
      paddingX={1}
      alignSelf="flex-start"
    >
      <Text bold>Keys</Text>
      <Box columnGap={GROUP_GAP}>
        {sections.map((section) => (
          <Box key={section.title} flexDirection="column" marginTop={1} flexShrink={0}>
            <Text bold color={theme.color('accent')}>
              {theme.text(section.title)}
            </Text>
            {section.keys.map((k) => (
              <Text key={k.key}>
                <Text bold color={theme.color('key')}>
                  {padEnd(theme.text(k.key), keyColumn(section, theme.text))}
                </Text>
                {theme.text(k.label)}
              </Text>
            ))}
          </Box>
        ))}
      </Box>
      <Box marginTop={1}>
        <Text dimColor>{theme.text(footer)}</Text>
      </Box>
    </Box>
  );
}
