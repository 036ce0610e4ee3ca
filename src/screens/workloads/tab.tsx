import { type FeedTabOptions, feedTab } from '../feed-gate.js';
import type { ScreenTab } from '../tab.js';
import { EXPLAIN_KEYS, WORKLOADS_FILTER_KEYS, WORKLOADS_KEYS } from './keys.js';
import { WorkloadsScreen } from './workloads-screen.js';

const TAB: FeedTabOptions<'workloads'> = {
  title: 'Workloads',
  about: {
    text: 'Where Nova placed each workload of the control plane, how much of it runs there, and why one did not go.',
    steps: [
      'Every workload with its clusters',
      'Replicas ready per cluster',
      'Pending, drifted and orphaned ones',
      'The placement checklist of one',
    ],
  },
  what: 'the workloads',
  group: 'workloads',
  status: (s) => s.workloads.status,
  Screen: ({ own, ...props }) => <WorkloadsScreen {...props} actions={own} logs={props.actions.logs} />,
};

/** Workloads: where each workload of the control plane went, and why one did not. */
export const workloadsTab: ScreenTab = {
  id: 'workloads',
  title: 'Workloads',
  Screen: feedTab(TAB),
  keys: [WORKLOADS_KEYS, WORKLOADS_FILTER_KEYS, EXPLAIN_KEYS],
  shown: (actions) => actions.workloads?.show(),
};
