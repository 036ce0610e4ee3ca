import { Box, Text } from 'ink';
import type { KeyHint } from '../key-hints/index.js';
import { padEnd, useTheme } from '../theme/index.js';

export interface HelpSection {
  title: string;
  keys: readonly KeyHint[];
}

export interface HelpOverlayProps {
  sections: readonly HelpSection[];
  /** Shown at the bottom of the box. */
  footer?: string;
}

/** Every key, grouped side by side, in a framed box. */
export function HelpOverlay({ sections, footer = 'press ? or esc to close' }: HelpOverlayProps) {
  const theme = useTheme();
  // Each group as narrow as its own keys allow, so three groups fit side by side in 80 columns.
  const keyWidth = (section: HelpSection) => Math.max(...section.keys.map((k) => theme.text(k.key).length), 1) + 2;
  return (
    <Box
      flexDirection="column"
      borderStyle={theme.ascii ? 'classic' : 'round'}
      borderColor={theme.color('accent')}
      paddingX={1}
      alignSelf="flex-start"
    >
      <Text bold>Keys</Text>
      <Box columnGap={3}>
        {sections.map((section) => (
          <Box key={section.title} flexDirection="column" marginTop={1}>
            <Text bold color={theme.color('accent')}>
              {theme.text(section.title)}
            </Text>
            {section.keys.map((k) => (
              <Text key={k.key}>
                <Text bold color={theme.color('key')}>
                  {padEnd(theme.text(k.key), keyWidth(section))}
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
