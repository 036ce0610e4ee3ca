import type { FleetStore } from '../../../store/fleet-store.js';
import type { LogTarget } from '../../../store/log-target.js';

/** What every section of an open context gets. */
export interface SectionProps extends SectionView {
  store: FleetStore;
  /** The context. */
  name: string;
  /** `l` on a row that stands for a pod opens its log. */
  onOpenLogs?: ((target: LogTarget) => void) | undefined;
}

/** How a section is shown: its filter, whether a row is open in full, its size, its keys. */
export interface SectionView {
  filter: string;
  filtering: boolean;
  expanded: boolean;
  height: number;
  width: number;
  /** Its keys work (not while help is open or a filter is typed). */
  isActive: boolean;
}
