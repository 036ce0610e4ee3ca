import { Box, Text } from 'ink';
import { useTheme } from '../theme/index.js';

export interface TabBarProps {
  /** Tab titles in order; tab i is selected with key i+1. */
  tabs: readonly string[];
  active: number;
  /** Shown before the tabs. */
  title?: string;
  /** Columns available (default: room for the whole bar). */
  width?: number;
}

export type TabBarForm = 'full' | 'tabs' | 'numbers';

/**
 * How much of the bar fits `width`: the product's name and every title; every title without
 * the name; or the active title with the other tabs by number only.
 */
export function tabBarForm(tabs: readonly string[], title: string, width: number): TabBarForm {
  const titles = tabs.reduce((n, t) => n + [...t].length + 4, 0);
  if (title.length + 2 + titles + tabs.length <= width) return 'full';
  return titles <= width ? 'tabs' : 'numbers';
}

/** The screens along the top: "fleetdeck │ 1 Status  2 Install …", the active one highlighted; narrower when the terminal is. */
export function TabBar({ tabs, active, title = 'fleetdeck', width = Number.POSITIVE_INFINITY }: TabBarProps) {
  const theme = useTheme();
  const form = tabBarForm(tabs, title, width);
  return (
    <Box>
      {form === 'full' ? (
        <>
          <Text bold color={theme.color('accent')}>
            {title}
          </Text>
          <Text dimColor> {theme.ascii ? '|' : '│'}</Text>
        </>
      ) : null}
      {tabs.map((tab, i) => {
        const isActive = i === active;
        const name = form === 'numbers' && !isActive ? '' : `${theme.text(tab)} `;
        return (
          <Text key={tab}>
            {form === 'full' ? ' ' : ''}
            <Text inverse={isActive} bold={isActive} color={isActive ? theme.color('accent') : undefined}>
              <Text dimColor={!isActive}>{` ${i + 1} `}</Text>
              {name}
            </Text>
          </Text>
        );
      })}
    </Box>
  );
}
