import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { UsageError, UserError } from './errors.js';
import type { GlobalOptions } from './session/options.js';
import type { SandboxCommandOptions } from './commands/sandbox.js';
import type { RolloutTarget } from './commands/rollout.js';
import { VERSION } from './version.js';
import { setReadOnly } from './kube/gate.js';

function intIn(min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`"${value}" is not a whole number`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${n} is out of range (${min}–${max})`);
    return n;
  };
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(',').filter(Boolean)];

/** "15m", "90s", "1h30m", "500ms"; a bare number is seconds. */
function duration(flag: string) {
  return (value: string): number => {
    const v = value.trim();
    if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
    const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
    const parts = [...v.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
    if (parts.length === 0 || parts.map((p) => p[0]).join('') !== v) throw new InvalidArgumentError(`"${value}" is not a duration for ${flag} (e.g. 90s, 15m, 1h30m)`);
    const ms = parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2]!]!, 0);
    if (ms <= 0) throw new InvalidArgumentError(`${flag} must be longer than 0`);
    return Math.round(ms);
  };
}

function outputOption(): Option {
  return new Option('-o, --output <format>', 'output format for plain mode').choices(['text', 'json']);
}

export function buildProgram(): Command {
  const program = new Command('fleetdeck')
    .description('Terminal dashboard for a multi-cluster Kubernetes control plane: every kube context, live.')
    .version(VERSION, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
    .option('--context <name>', 'kube context to show (repeatable, or comma separated; default: all); with a fleet: its workload contexts', collect)
    .option('--hosting-context <name>', 'fleet: the context whose cluster hosts the control plane (overrides the fleet file)')
    .option('--control-plane-context <name>', 'fleet: the control plane’s own context (default: nova)')
    .option('--namespace <ns>', 'fleet: the namespace of the control plane and the agents (default: elotl)')
    .addOption(outputOption())
    .option('--read-only', 'never change anything in any cluster')
    .option('--no-color', 'no colours (also when NO_COLOR is set)')
    .option('--ascii', 'ASCII symbols only')
    .option('--sandbox', 'when no --kubeconfig/--context is given: start (or reuse) the built-in sandbox fleet and show it')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeErr: () => {}, outputError: () => {} })
    // The write gate is set once, before any command runs: --read-only refuses every change.
    .hook('preAction', (_program, action) => setReadOnly(!!action.optsWithGlobals<GlobalOptions>().readOnly))
    .action(async (_opts, cmd: Command) => {
      // Commands load what they need when they run: --help and --version stay instant.
      const { runDashboard } = await import('./commands/dashboard.js');
      process.exitCode = await runDashboard(cmd.optsWithGlobals<GlobalOptions>());
    });

  program
    .command('status')
    .description('print the fleet checklist and every context once and exit (0: healthy, 1: not, 2: usage or config error)')
    .addOption(outputOption())
    .option('-w, --watch', 'keep watching and print each change as a line (plain mode)')
    .action(async (_opts, cmd: Command) => {
      const { runStatus } = await import('./commands/status.js');
      process.exitCode = await runStatus(cmd.optsWithGlobals<GlobalOptions>());
    });

  const installOptions = (cmd: Command) =>
    cmd
      .option('--workload <contexts>', 'workload contexts to connect (repeatable or comma separated; CONTEXT=NAME to register under another cluster name)', collect)
      .option('--bundle <dir>', 'install from this bundle directory (plain manifests or kustomizations) instead of the built-in one')
      .addOption(outputOption())
      .option('-y, --yes', 'do not ask for confirmation');

  installOptions(
    program
      .command('install')
      .description('check, then install the control plane into the hosting context and connect the workload contexts (resumable: run it again after an interruption)'),
  )
    .option('--no-ha', 'one replica of each component (default: 3, spread by the topology key)')
    .option('--topology-key <key>', 'node label that spreads the HA replicas', 'topology.kubernetes.io/zone')
    .option('--cert-validity-days <days>', 'validity of the certificates', intIn(1, 36500), 3650)
    .option('--rotate-certs', 'regenerate every certificate and key (existing ones are otherwise reused)')
    .option('--merge-kubeconfig', 'also add the control plane context to your kubeconfig (backup first; existing names are never overwritten)')
    .option('--dry-run', 'show every object that would be created or changed, change nothing')
    .action(async (_opts, cmd: Command) => {
      const { runInstallCommand } = await import('./commands/install.js');
      process.exitCode = await runInstallCommand(cmd.optsWithGlobals());
    });

  installOptions(
    program.command('uninstall').description('remove the agents, the control plane, its certificates, its Service and namespace (asks you to type the namespace)'),
  ).action(async (_opts, cmd: Command) => {
    const { runUninstallCommand } = await import('./commands/install.js');
    process.exitCode = await runUninstallCommand(cmd.optsWithGlobals());
  });

  const sandbox = program
    .command('sandbox')
    .description('a local fleet of real Kubernetes control planes on loopback (hosting + workload clusters)')
    .option('--dir <dir>', 'state directory (default: $FLEETDECK_SANDBOX_DIR, else ~/.local/state/fleetdeck/sandbox)');

  const sandboxAction =
    (sub: SandboxCommandOptions['sub']) =>
    async (...args: unknown[]) => {
      const cmd = args[args.length - 1] as Command;
      const positional = args.slice(0, -2).filter((a): a is string => typeof a === 'string');
      const { runSandbox } = await import('./commands/sandbox.js');
      process.exitCode = await runSandbox({ ...cmd.optsWithGlobals<GlobalOptions & SandboxCommandOptions>(), sub, args: positional });
    };

  sandbox
    .command('up')
    .description('start the sandbox (or print how to use it if it is running); prints `export KUBECONFIG=…` last')
    .option('--workloads <n>', 'number of workload clusters', intIn(0, 8), 2)
    .option('--nodes <n>', 'simulated nodes per cluster', intIn(1, 200), 6)
    .option('--replace-drained', 'replace a simulated node by a new one (same zone, new name) once it is cordoned and drained, as a cloud’s immutable infrastructure does')
    .action(sandboxAction('up'));
  sandbox.command('down').description('stop every process the sandbox started and remove its state').action(sandboxAction('down'));
  sandbox
    .command('status')
    .description('list the sandbox clusters and their health (exit 0 when all healthy)')
    .addOption(outputOption())
    .action(sandboxAction('status'));
  sandbox
    .command('stop-apiserver')
    .description('stop one cluster’s API server (an outage drill); start-apiserver brings it back')
    .argument('<context>', 'sandbox context, e.g. kind-workload-1')
    .action(sandboxAction('stop-apiserver'));
  sandbox
    .command('start-apiserver')
    .description('start a stopped API server again')
    .argument('<context>', 'sandbox context, e.g. kind-workload-1')
    .action(sandboxAction('start-apiserver'));
  sandbox
    .command('__supervise', { hidden: true })
    .option('--workloads <n>', '', intIn(0, 8), 2)
    .option('--nodes <n>', '', intIn(1, 200), 6)
    .option('--replace-drained', '')
    .action(sandboxAction('__supervise'));

  // fleetdeck rollout: each --selector/--node takes the --priority that follows it.
  const rollout = program
    .command('rollout')
    .description('replace nodes by priority (Navarchos NodeRollout semantics): cordon, drain, replacement, health gate; state kept in the cluster, resumable')
    .allowExcessArguments(true)
    .action((_opts, cmd: Command) => {
      const [sub] = cmd.args;
      if (sub !== undefined) throw new UsageError(`unknown command 'rollout ${sub}' (create, resume, abort, watch, list)`);
      // `fleetdeck rollout` alone: its help, as a usage error.
      rollout.outputHelp();
      process.exitCode = 2;
    });
  const targets: RolloutTarget[] = [];
  const addTarget = (kind: RolloutTarget['kind']) => (value: string) => {
    targets.push({ kind, value });
    return targets;
  };
  rollout
    .command('create')
    .description('resolve the nodes, show the order and the dry run, then (confirmed, or --yes) run the rollout here, a line per change')
    .option('--selector <selector>', 'label selector of nodes to replace, kubectl syntax (repeatable; the --priority after it applies to it)', addTarget('selector'))
    .option('--node <name>', 'a node to replace by name (repeatable; the --priority after it applies to it; overrides selectors)', addTarget('node'))
    .option('--priority <n>', 'priority of the --selector or --node just before it (default 0; higher priorities finish first)', (value: string) => {
      const last = targets.at(-1);
      if (!last) throw new InvalidArgumentError('--priority must follow a --selector or --node');
      if (last.priority !== undefined) throw new InvalidArgumentError(`--${last.kind} ${last.value} has a --priority already`);
      if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`"${value}" is not a whole number`);
      last.priority = Number(value);
      return last.priority;
    })
    .option('-f, --filename <file>', 'a Navarchos NodeRollout YAML (its nodeSelectors and nodeNames, added to the flags)')
    .option('--name <name>', 'the rollout’s name (default: rollout-YYYYMMDD-HHMM)')
    .option('--max-unavailable <n>', 'nodes worked on at once within a priority', intIn(1, 1000), 1)
    .addOption(new Option('--replace <mode>', 'after the drain: wait for a new node, delete the Node object, or uncordon (in-place maintenance)').choices(['wait', 'delete-node', 'uncordon']).default('wait'))
    .option('--force', 'drain: evict pods no controller manages (kubectl drain --force)')
    .option('--delete-emptydir-data', 'drain: evict pods with emptyDir volumes, whose data is lost')
    .addOption(new Option('--timeout <duration>', 'per-node drain timeout').argParser(duration('--timeout')).default(15 * 60_000, '15m'))
    .option('--health-passes <n>', 'health checks in a row the gate needs (every node Ready, no Pending pod)', intIn(1, 100), 3)
    .addOption(new Option('--health-interval <duration>', 'time between health checks').argParser(duration('--health-interval')).default(5_000, '5s'))
    .addOption(new Option('--health-timeout <duration>', 'how long the gate may take before the rollout pauses').argParser(duration('--health-timeout')).default(10 * 60_000, '10m'))
    .option('--dry-run', 'show the order and what would happen to every pod, change nothing')
    .option('-y, --yes', 'do not ask for confirmation')
    .addOption(outputOption())
    .action(async (_opts, cmd: Command) => {
      const { runRolloutCreate } = await import('./commands/rollout.js');
      process.exitCode = await runRolloutCreate({ ...cmd.optsWithGlobals(), targets });
    });
  rollout
    .command('resume')
    .description('continue a paused, failed or interrupted rollout from every node’s recorded phase')
    .argument('<name>', 'the rollout')
    .option('--force-takeover', 'take over from another fleetdeck whose heartbeat is younger than 30 s')
    .addOption(outputOption())
    .action(async (name: string, _opts, cmd: Command) => {
      const { runRolloutResume } = await import('./commands/rollout.js');
      process.exitCode = await runRolloutResume(name, cmd.optsWithGlobals());
    });
  rollout
    .command('abort')
    .description('stop the rollout (the fleetdeck running it stops too) and uncordon the nodes it cordoned and did not finish')
    .argument('<name>', 'the rollout')
    .option('-y, --yes', 'do not ask for confirmation')
    .addOption(outputOption())
    .action(async (name: string, _opts, cmd: Command) => {
      const { runRolloutAbort } = await import('./commands/rollout.js');
      process.exitCode = await runRolloutAbort(name, cmd.optsWithGlobals());
    });
  rollout
    .command('watch')
    .description('print the progress of a rollout as lines until it ends (without a name: every rollout, until Ctrl-C)')
    .argument('[name]', 'the rollout')
    .addOption(outputOption())
    .action(async (name: string | undefined, _opts, cmd: Command) => {
      const { runRolloutWatch } = await import('./commands/rollout.js');
      process.exitCode = await runRolloutWatch(name, cmd.optsWithGlobals());
    });
  rollout
    .command('list')
    .description('the rollouts recorded in the cluster, newest first')
    .addOption(outputOption())
    .action(async (_opts, cmd: Command) => {
      const { runRolloutList } = await import('./commands/rollout.js');
      process.exitCode = await runRolloutList(cmd.optsWithGlobals());
    });
  for (const cmd of rollout.commands) {
    cmd.exitOverride().configureOutput({ writeErr: () => {}, outputError: () => {} }).showSuggestionAfterError(true);
  }

  // fleetdeck storage estimate
  const storage = program
    .command('storage')
    .description('storage of a cluster or this host, per node, and whether a catalogue of volumes fits')
    .allowExcessArguments(true)
    .action((_opts, cmd: Command) => {
      const [sub] = cmd.args;
      if (sub !== undefined) throw new UsageError(`unknown command 'storage ${sub}' (estimate)`);
      storage.outputHelp();
      process.exitCode = 2;
    });
  storage
    .command('estimate')
    .description('volume groups and disks per node, then Required against Available for the enabled features (0: it fits, 1: it does not, 2: bad input)')
    .option('--local', 'this host (lsblk, vgs, pvs) instead of a cluster')
    .option('--catalogue <file>', 'the catalogue of features and volumes: a YAML file, or a shipped one by name (default, kloudspot-example)')
    .option('--features <names>', 'features to enable (repeatable, or comma separated; default: those the catalogue enables)', collect)
    .option('--size <volume=GB>', 'size of a volume in GB, whole or decimal (repeatable, or comma separated; default: the catalogue’s)', collect)
    .option('--shared-pool <vg>', 'volume group for shared volumes (default: one named for shared storage, else the largest other)')
    .option('--unshared-pool <vg>', 'volume group for unshared volumes (default: the one with the most free space)')
    .option('--values <file>', 'write the features, sizes and pools as a values YAML (never overwrites without --force)')
    .option('--force', 'let --values overwrite an existing file')
    .addOption(outputOption())
    .action(async (_opts, cmd: Command) => {
      const { runStorageEstimate } = await import('./commands/storage.js');
      process.exitCode = await runStorageEstimate(cmd.optsWithGlobals());
    });
  for (const cmd of storage.commands) {
    cmd.exitOverride().configureOutput({ writeErr: () => {}, outputError: () => {} }).showSuggestionAfterError(true);
  }

  // fleetdeck approve: pending CertificateSigningRequests of one context.
  program
    .command('approve')
    .description('list the pending certificate signing requests of a context with warnings; approve (or --deny) them by name or requester; --auto approves one requester and signer as they come')
    .argument('[names...]', 'the requests to approve (or deny)')
    .option('--all-from <requester>', 'every pending request of this requester (spec.username)')
    .option('--deny', 'deny instead of approve')
    .option('--auto', 'keep watching and approve new pending requests of --requester for --signer until Ctrl-C')
    .option('--requester <user>', '--auto: the requester (spec.username) whose requests are approved')
    .option('--signer <name>', '--auto: the signer, e.g. kubernetes.io/kube-apiserver-client-kubelet')
    .option('--message <text>', 'message recorded in the Approved/Denied condition')
    .option('-y, --yes', 'do not ask for confirmation')
    .addOption(outputOption())
    .action(async (names: string[], _opts, cmd: Command) => {
      const { runApproveCommand } = await import('./commands/approve.js');
      process.exitCode = await runApproveCommand({ ...cmd.optsWithGlobals(), names });
    });

  program
    .command('preflight')
    .description('check this host before it becomes a node: OS, ports, API server and clock, previous install, hostname, firewalls, resolv.conf, swap, CPU, memory (0: no failures, 1: failures, 2: usage)')
    .option('--server <url>', 'API server to reach over TCP and TLS, and compare clocks with (default: the --context’s or current context’s)')
    .option('--root <dir>', 'read the host’s files under this directory instead of / (commands such as systemctl are then not run)')
    .option('--min-cpus <n>', 'minimum CPUs', '2')
    .option('--min-memory <GB>', 'minimum memory in GB (10^9 bytes of MemTotal)', '2')
    .addOption(outputOption())
    .action(async (_opts, cmd: Command) => {
      const { runPreflight } = await import('./commands/preflight.js');
      process.exitCode = await runPreflight(cmd.optsWithGlobals());
    });

  for (const cmd of [program, ...program.commands, ...sandbox.commands]) {
    cmd.exitOverride().configureOutput({ writeErr: () => {}, outputError: () => {} }).showSuggestionAfterError(true);
  }
  return program;
}

function oneLine(message: string): string {
  return message.replace(/^error: /, '').split('\n')[0] ?? message;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      const msg = oneLine(err.message);
      const cmdHelp = 'run `fleetdeck --help` for usage';
      process.stderr.write(`fleetdeck: ${msg}; ${cmdHelp}\n`);
      return 2;
    }
    if (err instanceof UsageError || err instanceof UserError) {
      process.stderr.write(`fleetdeck: ${err.message}\n`);
      return err.exitCode;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`fleetdeck: unexpected error: ${message.split('\n')[0]}\n`);
    if (process.env.FLEETDECK_DEBUG) console.error(err);
    return 1;
  }
}

export async function run(): Promise<never> {
  const code = await main(process.argv.slice(2));
  // Keep-alive sockets and timers of finished requests must not hold the process open.
  process.exit(code);
}
