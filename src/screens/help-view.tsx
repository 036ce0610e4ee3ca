import { useMemo } from 'react';
import { type KeyTable, useKeyActions } from '../components/key-actions/index.js';
import { type HelpSection, HelpOverlay } from '../components/help-overlay/index.js';
import { useAppCommands, type WithApp } from './keys/app-commands.js';
import { goToScreen, NEXT_SCREEN, PREVIOUS_SCREEN, QUIT } from './keys/global.js';

interface HelpKeys extends WithApp {
  close(): void;
}

/** The help's own keys: it closes with esc or ?, and the screens and quit work as everywhere. */
export function helpViewKeys(screens: number): KeyTable<HelpKeys> {
  return {
    title: 'Help',
    owns: true,
    actions: [
      { keys: ['esc', '?'], label: 'esc', description: 'close help', run: (c) => c.close() },
      QUIT,
      NEXT_SCREEN,
      PREVIOUS_SCREEN,
      goToScreen(screens),
    ],
  };
}

export interface HelpViewProps {
  sections: readonly HelpSection[];
  screens: number;
  width: number;
  height: number;
  onClose: () => void;
}

/** The help of the view it was opened over: its keys' groups beside the ones every screen has. */
export function HelpView({ sections, screens, width, height, onClose }: HelpViewProps) {
  const app = useAppCommands();
  const table = useMemo(() => helpViewKeys(screens), [screens]);
  useKeyActions(table, () => ({ app, close: onClose }), { active: true });
  return <HelpOverlay sections={sections} width={width} height={height} />;
}
