import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFleetStore, setBanner, setContexts } from '../../../src/store/fleet-store.js';
import { info } from '../../helpers/screens/fleets.js';
import { appProps, renderApp } from '../../helpers/screens/screen.js';

afterEach(() => cleanup());

describe('No contexts', () => {
  it('explains how to start the sandbox, and s starts it', async () => {
    // Given an empty store and a way to start the sandbox
    const onStartSandbox = vi.fn();
    const store = createFleetStore([]);
    const screen = await renderApp(appProps(store, { actions: { sandbox: { start: onStartSandbox } }, kubeconfigFiles: [] }));

    // Then the screen explains what to do
    const frame = await screen.waitFor('No kubeconfig context found');
    expect(frame).toContain('fleetdeck sandbox up');
    expect(frame).toContain('export KUBECONFIG=');
    expect(frame).toContain('fleetdeck --sandbox');
    expect(frame).toContain('Press s to start the sandbox fleet now');
    expect(frame).toContain('0 contexts');

    // When s is pressed
    await screen.press('s');

    // Then the sandbox is asked for
    await vi.waitFor(() => expect(onStartSandbox).toHaveBeenCalledTimes(1));
  });

  it('does not offer s when the app cannot start the sandbox', async () => {
    // Given an empty store and no sandbox starter
    const screen = await renderApp(appProps(createFleetStore([])));

    // Then the instructions show without the key
    const frame = await screen.waitFor('fleetdeck --sandbox');
    expect(frame).not.toContain('Press s');
  });

  it('shows the progress banner, then the contexts once they arrive', async () => {
    // Given the sandbox starting
    const store = createFleetStore([]);
    const screen = await renderApp(appProps(store, { actions: { sandbox: { start: () => {} } }, kubeconfigFiles: [] }));
    expect(await screen.waitFor('No kubeconfig context found')).toContain('no kubeconfig file');
    setBanner(store, { kind: 'progress', text: 'starting the sandbox fleet…' });
    await screen.waitFor('starting the sandbox fleet…');

    // When its contexts are set
    setContexts(store, [info('kind-cp'), info('kind-workload-1')], undefined, ['/sb/kubeconfig']);
    setBanner(store, {
      kind: 'info',
      text: 'sandbox running · kubectl: export KUBECONFIG=/home/ops/.local/state/fleetdeck/sandbox/kubeconfig',
    });

    // Then they are listed as connecting, and the whole path of the banner is shown
    const frame = await screen.waitFor('kind-workload-1');
    expect(frame).toContain('connecting…');
    // And the context bar names the sandbox's kubeconfig
    expect(frame).toContain('/sb/kubeconfig');
    expect(frame).not.toContain('no kubeconfig file');
    expect(frame.replace(/\n\s*/g, ' ')).toContain('/home/ops/.local/state/fleetdeck/sandbox/kubeconfig');
    expect(frame.split('\n').length).toBeLessThan(24);
  });
});
