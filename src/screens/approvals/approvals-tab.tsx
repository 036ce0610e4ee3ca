import { Text, useInput } from 'ink';
import { useStore } from 'zustand';
import type { ApprovalActions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { ApprovalsPanel } from './approvals-panel.js';

export interface ApprovalsTabProps {
  store: FleetStore;
  actions: ApprovalActions;
  readOnly: boolean;
  active: boolean;
  height: number;
  width: number;
  onQuit: () => void;
}

/** The Approvals panel once its feed runs; while it loads (or failed to), Esc still goes back and q quits. */
export function ApprovalsTab(props: ApprovalsTabProps) {
  const status = useStore(props.store, (s) => s.approvals.status);
  useInput(
    (input, key) => {
      if (key.escape) props.actions.close();
      else if (input === 'q' || (key.ctrl && input === 'c')) props.onQuit();
    },
    { isActive: status !== 'on' },
  );
  if (status === 'on') return <ApprovalsPanel {...props} />;
  if (typeof status === 'object') return <Text>{status.error} (esc: back)</Text>;
  return <Text>loading the approvals…</Text>;
}
