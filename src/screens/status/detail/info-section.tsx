import { useStore } from 'zustand';
import { useTheme } from '../../../components/theme/index.js';
import { detailLines } from '../detail-lines.js';
import { roleDescription } from '../fleet/fleet-roles.js';
import { viewSize } from '../../../components/fit/index.js';
import { INFO_KEYS } from '../keys.js';
import { ScrollPage } from '../scroll-page.js';
import { useDetailScroll } from '../use-detail-scroll.js';
import { useStatusKeys } from '../use-status-keys.js';
import type { SectionProps } from './section-props.js';

/** Server, user, versions, eviction API, last success or error, and the context's checks (nodes, zones, kubelets). */
export function InfoSection({ store, name, height, width, isActive }: SectionProps) {
  const theme = useTheme();
  const ctx = useStore(store, (s) => s.status.contexts[name]);
  const fleet = useStore(store, (s) => s.fleet);
  const lines = ctx ? detailLines(ctx, width, { ascii: theme.ascii, role: roleDescription(fleet, name), fleet }) : [];
  const scroll = useDetailScroll(lines.length, viewSize(lines.length, height, 1));
  useStatusKeys(INFO_KEYS, () => ({ move: scroll.move }), isActive);
  return <ScrollPage lines={lines} offset={scroll.offset} height={height} width={width} />;
}
