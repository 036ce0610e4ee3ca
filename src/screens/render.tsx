import { render, type Instance } from 'ink';
import { App, type AppProps } from './app.js';

export interface RenderAppOptions {
  stdout?: NodeJS.WritableStream;
  stdin?: NodeJS.ReadableStream;
}

/**
 * At most this many frames a second: live updates stay smooth on a local
 * terminal and cheap over SSH on a bastion.
 */
export const MAX_FPS = 12;

/** Draw the dashboard. Ctrl-C and q call `onQuit`; the caller unmounts. */
export function renderApp(props: AppProps, opts: RenderAppOptions = {}): Instance {
  return render(<App {...props} />, {
    ...(opts.stdout ? { stdout: opts.stdout } : {}),
    ...(opts.stdin ? { stdin: opts.stdin } : {}),
    exitOnCtrlC: false,
    maxFps: MAX_FPS,
    // Rewrite only the lines that changed: fewer bytes per frame over slow links.
    incrementalRendering: true,
  });
}
