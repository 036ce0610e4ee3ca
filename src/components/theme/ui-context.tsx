import { createContext, useContext, type ReactNode } from 'react';

/** How the terminal wants to be written to. */
export interface UiSettings {
  /** ASCII symbols only (no Unicode). */
  ascii: boolean;
  /** Emit colors; false for NO_COLOR or `--no-color`. */
  color: boolean;
}

const UiContext = createContext<UiSettings>({ ascii: false, color: true });

export function UiProvider({ value, children }: { value: UiSettings; children: ReactNode }) {
  return <UiContext.Provider value={value}>{children}</UiContext.Provider>;
}

export function useUiSettings(): UiSettings {
  return useContext(UiContext);
}

/** NO_COLOR (https://no-color.org): present and not empty turns colors off. */
export function colorAllowed(wanted: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return wanted && !env.NO_COLOR;
}
