import { Text } from 'ink';
import { useTheme } from '../../../components/theme/index.js';
import { DETAIL_SECTIONS, type DetailSection } from '../status-nav.js';
import { tabCount, type DetailHeader } from './detail-header.js';

const TITLES: Record<DetailSection, { key: string; title: string }> = {
  info: { key: 'i', title: 'Info' },
  nodes: { key: 'n', title: 'Nodes' },
  pods: { key: 'p', title: 'Pods' },
  events: { key: 'e', title: 'Events' },
};

export interface SectionTabsProps {
  active: DetailSection;
  header: DetailHeader;
}

/** " i Info   n Nodes 3/4   p Pods 3 bad   e Events 5 ", the open one highlighted, counts that need a look in the warning color. */
export function SectionTabs({ active, header }: SectionTabsProps) {
  const theme = useTheme();
  return (
    <Text>
      {DETAIL_SECTIONS.map((section, i) => {
        const { key, title } = TITLES[section];
        const count = tabCount(header, section);
        const isActive = section === active;
        return (
          <Text key={section}>
            {i > 0 ? ' ' : ''}
            <Text inverse={isActive} bold={isActive}>
              {' '}
              <Text bold color={isActive ? undefined : theme.color('key')}>
                {key}
              </Text>{' '}
              <Text color={isActive ? theme.color('accent') : undefined}>{title}</Text>
              {count ? (
                <Text
                  color={count.warn ? theme.color('warn') : undefined}
                  dimColor={!count.warn && !isActive}
                >{` ${theme.text(count.text)}`}</Text>
              ) : null}{' '}
            </Text>
          </Text>
        );
      })}
    </Text>
  );
}
