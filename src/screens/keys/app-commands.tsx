import { createContext, type ReactNode, useContext } from 'react';

/** What every view can ask of the dashboard around it: the keys the app shares (help, quit, screens). */
export interface AppCommands {
  quit(): void;
  /** Open the help of the view on screen (or close it). */
  toggleHelp(): void;
  /** The next / previous screen. */
  cycleTab(delta: 1 | -1): void;
  /** Screen `index` (0-based; one that does not exist changes nothing). */
  goTab(index: number): void;
}

const NOTHING: AppCommands = { quit: () => {}, toggleHelp: () => {}, cycleTab: () => {}, goTab: () => {} };
const AppCommandsContext = createContext<AppCommands>(NOTHING);

export function AppCommandsProvider({ value, children }: { value: AppCommands; children: ReactNode }) {
  return <AppCommandsContext.Provider value={value}>{children}</AppCommandsContext.Provider>;
}

/** The dashboard's commands (outside a dashboard, e.g. the install wizard on its own: only what its props give). */
export function useAppCommands(): AppCommands {
  return useContext(AppCommandsContext);
}

/** A view's key context has the app's commands, so the shared keys work in its table. */
export interface WithApp {
  app: AppCommands;
}
