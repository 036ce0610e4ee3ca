/**
 * The integration files run on two sandbox fleets at once, each file alone on its fleet as ever:
 * the files listed here on the second (project `integration-2`), every other one on the first
 * (`integration`). Two fleets on one 2-core machine: the tests mostly wait on the API servers and
 * the simulated kubelets, so the two halves overlap and the run takes about the longer half.
 * Balanced by the durations `npm test` prints (its `slowest:` lines); a file moved between the
 * halves needs nothing else. test/integration-groups.test.ts fails on a name that is no file.
 */
export const SECOND_SANDBOX: readonly string[] = [
  'test/bad-input.int.test.ts',
  'test/commands/approve.int.test.ts',
  'test/commands/backup.int.test.ts',
  'test/commands/get.int.test.ts',
  'test/commands/logs.int.test.ts',
  'test/commands/restore.int.test.ts',
  'test/commands/rollout/in-cluster.int.test.ts',
  'test/commands/rollout/list.int.test.ts',
  'test/completion/rollout-names.int.test.ts',
  'test/config/fleets.int.test.ts',
  'test/dashboard/read-only-keys.int.test.ts',
  'test/day2/renew/rotate-ca.int.test.ts',
  'test/day2/upgrade/upgrade.int.test.ts',
  'test/feeds/feeds.int.test.ts',
  'test/feeds/logs.int.test.ts',
  'test/install/install.int.test.ts',
  'test/install/prechecks/gather.int.test.ts',
  'test/install/uninstall.int.test.ts',
  'test/kube/fleet/api-settled.int.test.ts',
  'test/kube/fleet/monitor-latency.int.test.ts',
  'test/kube/navarchos/objects.int.test.ts',
  'test/kube/protobuf/node.int.test.ts',
  'test/kube/protobuf/pod.int.test.ts',
  'test/kube/transport/transport.int.test.ts',
  'test/rollout/runner/run-drain-blocked.int.test.ts',
  'test/rollout/runner/run-order.int.test.ts',
  'test/rollout/runner/run-replace-wait.int.test.ts',
  'test/rollout/runner/run-resume.int.test.ts',
  'test/sandbox/audit.int.test.ts',
  'test/sandbox/control.int.test.ts',
  'test/sandbox/kubeconfig.int.test.ts',
  'test/sandbox/sim/kubelet.int.test.ts',
  'test/sandbox/sim/pods.int.test.ts',
  'test/sandbox/sim/replacer.int.test.ts',
  'test/storage/cluster.int.test.ts',
];
