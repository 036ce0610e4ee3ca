/** `rollout create`'s guard-rail flags (src/rollout/guards): windows, budget, gates, soak, deadlines, marks, notifications. */
import { type Command, Option } from 'commander';
import { duration } from './parsers.js';

const many = (value: string, previous: string[] = []): string[] => [...previous, value];

export function addGuardOptions(cmd: Command): Command {
  return cmd
    .option(
      '--window <window>',
      'maintenance window, DAYS HH:MM-HH:MM [ZONE], e.g. "Sat,Sun 02:00-06:00 Europe/Berlin" (repeatable; outside every window no node is taken)',
      many,
    )
    .option('--budget <size>', 'disruption budget: at most N nodes (or N%) unavailable at once, cordoned or NotReady for any reason')
    .addOption(
      new Option('--budget-of <nodes>', 'what the budget counts: every node of the cluster, or the rollout’s').choices([
        'cluster',
        'selected',
      ]),
    )
    .option(
      '--budget-schedule <schedule>',
      'a budget size on a cron schedule, SIZE at CRON for DURATION [in ZONE], e.g. "0 at 0 9 * * mon-fri for 8h" (repeatable)',
      many,
    )
    .option('--prometheus-url <url>', 'hold while alerts fire in this Prometheus (GET /api/v1/alerts)')
    .option('--alertmanager-url <url>', 'hold while alerts are active in this Alertmanager (GET /api/v2/alerts)')
    .option('--alert-ignore <regexp>', 'alerts whose name matches never hold (e.g. "^(Watchdog|InfoInhibitor)$")')
    .option('--alert-match <regexp>', 'only alerts whose name matches hold')
    .option('--alert-pending', 'pending (Prometheus) or silenced (Alertmanager) alerts hold too, not only firing ones')
    .option(
      '--blocking-pod-selector <selector>',
      'hold while pods matching this label selector exist anywhere in the cluster (repeatable)',
      many,
    )
    .addOption(new Option('--recheck <duration>', 'how often a hold is checked again (default 1m)').argParser(duration('--recheck')))
    .addOption(new Option('--soak <duration>', 'wait this long after each batch passes its health gate').argParser(duration('--soak')))
    .addOption(
      new Option('--priority-soak <duration>', 'wait this long before moving to a lower priority').argParser(duration('--priority-soak')),
    )
    .addOption(
      new Option('--node-deadline <duration>', 'pause when a node is not done this long after its cordon').argParser(
        duration('--node-deadline'),
      ),
    )
    .addOption(
      new Option('--deadline <duration>', 'pause when the rollout is not done this long after its start or latest resume').argParser(
        duration('--deadline'),
      ),
    )
    .addOption(
      new Option(
        '--on-drain-timeout <policy>',
        'a drain that times out: pause the rollout, skip the node, or delete its pods without eviction',
      ).choices(['pause', 'skip', 'force']),
    )
    .option('--prefer-no-schedule-taint', 'taint the nodes about to go PreferNoSchedule, so evicted pods avoid them')
    .option('--label-before <key=value>', 'label a node while the rollout works on it (repeatable)', many)
    .option('--label-after <key=value>', 'label a node (or its replacement) once it is done (repeatable)', many)
    .option('--concurrent', 'run even while another rollout runs in the cluster (default: one at a time)')
    .option('--notify-url <url>', 'POST a message for start, drained, replaced, blocked, paused, failed and completed to this webhook')
    .addOption(
      new Option('--notify-format <format>', 'the webhook’s body: Slack-compatible {"text"} or the event as JSON').choices([
        'slack',
        'json',
      ]),
    )
    .option('--notify-template <event=text>', 'a message template, e.g. "blocked={{rollout}} held: {{reason}}" (repeatable)', many);
}
