import { Box, Text } from 'ink';
import { useTheme } from '../../components/theme/index.js';

export interface EmptyFleetProps {
  /** The app can start the sandbox itself. */
  canStartSandbox: boolean;
}

/** No kubeconfig context: say so, and how to get a fleet to look at. */
export function EmptyFleet({ canStartSandbox }: EmptyFleetProps) {
  const theme = useTheme();
  const cmd = (s: string) => (
    <Text>
      {'    '}
      <Text color={theme.color('accent')}>{theme.text(s)}</Text>
    </Text>
  );
  return (
    <Box flexDirection="column">
      <Text bold color={theme.color('warn')}>
        No kubeconfig context found.
      </Text>
      <Text dimColor>{theme.text('fleetdeck reads --kubeconfig, else $KUBECONFIG, else ~/.kube/config.')}</Text>
      <Box flexDirection="column" marginTop={1}>
        <Text>Try it on the built-in sandbox fleet (local API servers, no cloud account):</Text>
        <Text>{'  '}start it, then point kubectl and fleetdeck at it:</Text>
        {cmd('fleetdeck sandbox up')}
        {cmd('export KUBECONFIG=<the kubeconfig it prints>')}
        {cmd('fleetdeck')}
        <Text>{'  '}or all in one step:</Text>
        {cmd('fleetdeck --sandbox')}
      </Box>
      {canStartSandbox ? (
        <Box marginTop={1}>
          <Text>
            Press{' '}
            <Text bold color={theme.color('key')}>
              s
            </Text>{' '}
            to start the sandbox fleet now.
          </Text>
        </Box>
      ) : null}
    </Box>
  );
}
