/**
 * What each rollout command changes in a cluster, in the words the write gate refuses it with
 * under --read-only: the commands and the Rollouts tab's keys say the same.
 */
export const ROLLOUT_WRITES = {
  create: 'rollout create cordons, drains and replaces nodes',
  resume: 'rollout resume cordons, drains and replaces nodes',
  abort: 'rollout abort uncordons nodes',
} as const;
