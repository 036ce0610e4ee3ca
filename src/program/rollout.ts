/** `fleetdeck rollout create|resume|abort|watch|list|cleanup`. The command's code is loaded when it runs. */
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { RolloutTarget } from '../commands/rollout.js';
import { UsageError } from '../errors.js';
import { duration, intIn, outputOption, quiet } from './parsers.js';
import { addGuardOptions } from './rollout-guards.js';

export function registerRollout(program: Command): void {
  const rollout = program
    .command('rollout')
    .description(
      'replace nodes by priority (Navarchos NodeRollout semantics): cordon, drain, replacement, health gate; state kept in the cluster, resumable',
    )
    .allowExcessArguments(true)
    .action((_opts, cmd: Command) => {
      const [sub] = cmd.args;
      if (sub !== undefined) throw new UsageError(`unknown command 'rollout ${sub}' (create, resume, abort, watch, list, cleanup)`);
      // `fleetdeck rollout` alone: its help, as a usage error.
      rollout.outputHelp();
      process.exitCode = 2;
    });
  registerCreate(rollout);
  rollout
    .command('resume')
    .description('continue a paused, failed or interrupted rollout from every node’s recorded phase')
    .argument('<name>', 'the rollout')
    .option('--force-takeover', "take the rollout's Lease from another holder that still renews it")
    .option('--in-cluster', 'start a new Job in the cluster to run it instead of running it here')
    .option('--runner-namespace <namespace>', 'with --in-cluster: the namespace of the runner Job (default: fleetdeck-system)')
    .option('--image <image>', 'with --in-cluster: the fleetdeck image the Job runs (default: this release’s)')
    .option('-y, --yes', 'with --in-cluster: do not ask for confirmation')
    .option('--metrics-listen <host:port>', 'serve the rollout’s Prometheus metrics there (GET /metrics) while it runs here')
    .addOption(new Option('--runner', 'run as the in-cluster runner (what the Job runs)').hideHelp())
    .addOption(outputOption())
    .action(async (name: string, _opts, cmd: Command) => {
      const { runRolloutResume } = await import('../commands/rollout.js');
      process.exitCode = await runRolloutResume(name, cmd.optsWithGlobals());
    });
  rollout
    .command('abort')
    .description('stop the rollout (the fleetdeck running it stops too) and uncordon the nodes it cordoned and did not finish')
    .argument('<name>', 'the rollout')
    .option('-y, --yes', 'do not ask for confirmation')
    .addOption(outputOption())
    .action(async (name: string, _opts, cmd: Command) => {
      const { runRolloutAbort } = await import('../commands/rollout.js');
      process.exitCode = await runRolloutAbort(name, cmd.optsWithGlobals());
    });
  rollout
    .command('watch')
    .description('print the progress of a rollout as lines until it ends (without a name: every rollout, until Ctrl-C)')
    .argument('[name]', 'the rollout')
    .addOption(outputOption())
    .action(async (name: string | undefined, _opts, cmd: Command) => {
      const { runRolloutWatch } = await import('../commands/rollout.js');
      process.exitCode = await runRolloutWatch(name, cmd.optsWithGlobals());
    });
  rollout
    .command('list')
    .description('the rollouts recorded in every context (or each --context), newest first')
    .addOption(outputOption())
    .action(async (_opts, cmd: Command) => {
      const { runRolloutList } = await import('../commands/rollout/list-run.js');
      process.exitCode = await runRolloutList(cmd.optsWithGlobals());
    });
  rollout
    .command('cleanup')
    .description('delete the runner Jobs that finished and, when no rollout runs in the cluster, the runner’s account and RBAC')
    .option('--runner-namespace <namespace>', 'the namespace of the runner Jobs (default: fleetdeck-system)')
    .option('--dry-run', 'show what would be deleted, change nothing')
    .option('-y, --yes', 'do not ask for confirmation')
    .addOption(outputOption())
    .action(async (_opts, cmd: Command) => {
      const { runRolloutCleanup } = await import('../commands/rollout/cleanup.js');
      process.exitCode = await runRolloutCleanup(cmd.optsWithGlobals());
    });
  for (const cmd of rollout.commands) {
    quiet(cmd);
  }
}

/** `rollout create`: each --selector/--node takes the --priority that follows it. */
function registerCreate(rollout: Command): void {
  const targets: RolloutTarget[] = [];
  const addTarget = (kind: RolloutTarget['kind']) => (value: string) => {
    targets.push({ kind, value });
    return targets;
  };
  const create = rollout.command('create');
  addGuardOptions(create);
  create
    .description(
      'resolve the nodes, show the order and the dry run, then (confirmed, or --yes) run the rollout here, a line per change, or in the cluster',
    )
    .option(
      '--selector <selector>',
      'label selector of nodes to replace, kubectl syntax (repeatable; the --priority after it applies to it)',
      addTarget('selector'),
    )
    .option(
      '--node <name>',
      'a node to replace by name (repeatable; the --priority after it applies to it; overrides selectors)',
      addTarget('node'),
    )
    .option(
      '--priority <n>',
      'priority of the --selector or --node just before it (default 0; higher priorities finish first)',
      (value: string) => {
        const last = targets.at(-1);
        if (!last) throw new InvalidArgumentError('--priority must follow a --selector or --node');
        if (last.priority !== undefined) throw new InvalidArgumentError(`--${last.kind} ${last.value} has a --priority already`);
        if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`"${value}" is not a whole number`);
        last.priority = Number(value);
        return last.priority;
      },
    )
    .option('-f, --filename <file>', 'a Navarchos NodeRollout YAML (its nodeSelectors and nodeNames, added to the flags)')
    .option('--name <name>', 'the rollout’s name (default: rollout-YYYYMMDD-HHMM)')
    .option('--max-unavailable <n>', 'nodes worked on at once within a priority', intIn(1, 1000), 1)
    .addOption(
      new Option('--replace <mode>', 'after the drain: wait for a new node, delete the Node object, or uncordon (in-place maintenance)')
        .choices(['wait', 'delete-node', 'uncordon'])
        .default('wait'),
    )
    .option('--force', 'drain: evict pods no controller manages (kubectl drain --force)')
    .option('--delete-emptydir-data', 'drain: evict pods with emptyDir volumes, whose data is lost')
    .addOption(new Option('--timeout <duration>', 'per-node drain timeout').argParser(duration('--timeout')).default(15 * 60_000, '15m'))
    .option('--health-passes <n>', 'health checks in a row the gate needs (every node Ready, no Pending pod)', intIn(1, 100), 3)
    .addOption(
      new Option('--health-interval <duration>', 'time between health checks')
        .argParser(duration('--health-interval'))
        .default(5_000, '5s'),
    )
    .addOption(
      new Option('--health-timeout <duration>', 'how long the gate may take before the rollout pauses')
        .argParser(duration('--health-timeout'))
        .default(10 * 60_000, '10m'),
    )
    .option(
      '--in-cluster',
      'run the rollout in the cluster, as a Job, and return once it runs (default: the fleet file’s inClusterRollouts)',
    )
    .option('--no-in-cluster', 'run it here, even where the fleet file says in the cluster')
    .option('--runner-namespace <namespace>', 'with --in-cluster: the namespace of the runner Job (default: fleetdeck-system)')
    .option('--image <image>', 'with --in-cluster: the fleetdeck image the Job runs (default: this release’s)')
    .option('--metrics-listen <host:port>', 'serve the rollout’s Prometheus metrics there (GET /metrics) while it runs here')
    .option('--dry-run', 'show the order and what would happen to every pod, change nothing')
    .option('-y, --yes', 'do not ask for confirmation')
    .addOption(outputOption())
    .action(async (_opts, cmd: Command) => {
      const { runRolloutCreate } = await import('../commands/rollout.js');
      process.exitCode = await runRolloutCreate({ ...cmd.optsWithGlobals(), targets });
    });
}
