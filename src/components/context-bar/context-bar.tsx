import { Badge } from '@inkjs/ui';
import { Box, Text } from 'ink';
import { useTheme } from '../theme/index.js';
import { filesLabel } from './short-path.js';

export interface ContextBarProps {
  total: number;
  reachable: number;
  kubeconfigFiles: readonly string[];
  readOnly: boolean;
  /** Columns available. */
  width: number;
}

/** "3 contexts · 2 reachable · ~/.kube/config  READ-ONLY" */
export function ContextBar({ total, reachable, kubeconfigFiles, readOnly, width }: ContextBarProps) {
  const theme = useTheme();
  const sep = ` ${theme.separator} `;
  const counts = `${total} context${total === 1 ? '' : 's'}`;
  const reach = `${reachable} reachable`;
  const badge = readOnly ? (theme.colorOn ? ' READ-ONLY ' : '[read-only]') : '';
  const used = counts.length + sep.length + reach.length + sep.length + (badge ? badge.length + 2 : 0);
  const files = theme.text(filesLabel(kubeconfigFiles, Math.max(8, width - used)));
  const allReachable = total > 0 && reachable === total;
  return (
    <Box>
      <Text>
        <Text bold>{counts}</Text>
        <Text dimColor>{sep}</Text>
        <Text color={total === 0 ? undefined : theme.color(allReachable ? 'ok' : 'warn')}>{reach}</Text>
        <Text dimColor>
          {sep}
          {files}
        </Text>
      </Text>
      {readOnly ? (
        <Box marginLeft={2}>{theme.colorOn ? <Badge color="yellow">read-only</Badge> : <Text bold>[read-only]</Text>}</Box>
      ) : null}
    </Box>
  );
}
