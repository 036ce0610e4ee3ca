import type { FleetStore } from '../../../store/fleet-store.js';

/** What every section of an open context gets. */
export interface SectionProps {
  store: FleetStore;
  /** The context. */
  name: string;
  filter: string;
  filtering: boolean;
  expanded: boolean;
  height: number;
  width: number;
  /** Its keys work (not while help is open or a filter is typed). */
  isActive: boolean;
}
