/**
 * The Install tab's wizard feed: what the wizard needs, loaded when it is first opened (the
 * install bundle, the kubeconfig's contexts), and its closing (an install done here makes the
 * dashboard watch the fleet it recorded).
 */
import type { Session } from '../session/session.js';
import type { InstallActions } from '../store/actions.js';
import { updateSlice } from '../store/fleet-store.js';
import type { Feed, FeedFactory } from './feed.js';
import { lazyFeed } from './lazy.js';

export interface InstallFeedOptions<W> {
  /** What the wizard needs; `kubeconfig` is the file a sandbox started here brought. */
  installer: (kubeconfig: string | undefined) => Promise<W>;
  /** The session after an install (the fleet file it wrote). Absent: the session stays. */
  reopen?: (kubeconfig: string | undefined) => Session;
}

export function installFeed<W>({ installer, reopen }: InstallFeedOptions<W>): FeedFactory {
  return ({ store, setSession }): Feed<'install'> => {
    const wizard = lazyFeed(
      () => installer(store.getState().kubeconfigFiles?.[0]),
      (s) => updateSlice(store, 'install', () => ({ wizard: s === 'on' ? 'open' : s === 'off' ? 'closed' : s })),
    );
    // After an install from the Install tab: the fleet file it wrote, and the control plane's context, watched.
    const watchInstalled = async (open: NonNullable<typeof reopen>) => {
      try {
        await setSession(open(store.getState().kubeconfigFiles?.[0]));
        store.setState({ banner: { kind: 'info', text: 'installed: the fleet is recorded and watched' } });
      } catch (err) {
        store.setState({ banner: { kind: 'error', text: err instanceof Error ? err.message : String(err) } });
      }
    };
    const actions: InstallActions<unknown> = {
      open: () => wizard.start(),
      closed: (code: number) => {
        wizard.reset();
        if (code === 0 && reopen) void watchInstalled(reopen);
      },
    };
    return { name: 'install', actions, start: () => {}, restart: () => {}, stop: () => {} };
  };
}
