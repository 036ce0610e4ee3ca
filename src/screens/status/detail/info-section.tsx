import { useStore } from 'zustand';
import { useTheme } from '../../../components/theme/index.js';
import { detailLines } from '../detail-lines.js';
import { roleDescription } from '../fleet/fleet-roles.js';
import { ScrollPage } from '../scroll-page.js';
import type { SectionProps } from './section-props.js';

/** Server, user, versions, eviction API, last success or error, and the context's checks (nodes, zones, kubelets). */
export function InfoSection({ store, name, height, width, isActive }: SectionProps) {
  const theme = useTheme();
  const ctx = useStore(store, (s) => s.status.contexts[name]);
  const fleet = useStore(store, (s) => s.fleet);
  const lines = ctx ? detailLines(ctx, width, { ascii: theme.ascii, role: roleDescription(fleet, name), fleet }) : [];
  return <ScrollPage lines={lines} height={height} width={width} isActive={isActive} />;
}
