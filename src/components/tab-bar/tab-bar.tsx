import { Box, Text } from 'ink';
import { useTheme } from '../theme/index.js';

export interface TabBarProps {
  /** Tab titles in order; tab i is selected with key i+1. */
  tabs: readonly string[];
  active: number;
  /** Shown before the tabs. */
  title?: string;
}

/** The screens along the top: "fleetdeck  1 Status  2 Install …", the active one highlighted. */
export function TabBar({ tabs, active, title = 'fleetdeck' }: TabBarProps) {
  const theme = useTheme();
  return (
    <Box>
      <Text bold color={theme.color('accent')}>
        {title}
      </Text>
      <Text dimColor> {theme.ascii ? '|' : '│'}</Text>
      {tabs.map((tab, i) => {
        const isActive = i === active;
        return (
          <Text key={tab}>
            {' '}
            <Text inverse={isActive} bold={isActive} color={isActive ? theme.color('accent') : undefined}>
              <Text dimColor={!isActive}>{` ${i + 1} `}</Text>
              {`${theme.text(tab)} `}
            </Text>
          </Text>
        );
      })}
    </Box>
  );
}
