import { feedTab } from '../feed-gate.js';
import { EXPLAIN_KEYS, WORKLOADS_FILTER_KEYS, WORKLOADS_KEYS } from './keys.js';
import { WorkloadsScreen } from './workloads-screen.js';

/** Workloads: where each workload of the control plane went, and why one did not. */
export const workloadsTab = feedTab({
  group: 'workloads',
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
  keys: [WORKLOADS_KEYS, WORKLOADS_FILTER_KEYS, EXPLAIN_KEYS],
  Screen: ({ own, ...props }) => <WorkloadsScreen {...props} actions={own} logs={props.actions.logs} />,
});
