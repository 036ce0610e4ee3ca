/** `fleetdeck sandbox up|down|status|stop-apiserver|start-apiserver|stop-etcd|start-etcd|monitoring start|stop` (and the hidden supervisor). The command's code is loaded when it runs. */
import type { Command } from 'commander';
import type { SandboxCommandOptions } from '../commands/sandbox.js';
import type { GlobalOptions } from '../session/options.js';
import { intIn, outputOption, quiet } from './parsers.js';

export function registerSandbox(program: Command): void {
  const sandbox = program
    .command('sandbox')
    .description('a local fleet of real Kubernetes control planes on loopback (hosting + workload clusters)')
    .option('--dir <dir>', 'state directory (default: $FLEETDECK_SANDBOX_DIR, else ~/.local/state/fleetdeck/sandbox)');

  const sandboxAction =
    (sub: SandboxCommandOptions['sub']) =>
    async (...args: unknown[]) => {
      const cmd = args[args.length - 1] as Command;
      const positional = args.slice(0, -2).filter((a): a is string => typeof a === 'string');
      const { runSandbox } = await import('../commands/sandbox.js');
      process.exitCode = await runSandbox({ ...cmd.optsWithGlobals<GlobalOptions & SandboxCommandOptions>(), sub, args: positional });
    };

  sandbox
    .command('up')
    .description('start the sandbox (or print how to use it if it is running); prints `export KUBECONFIG=…` last')
    .option('--workloads <n>', 'number of workload clusters', intIn(0, 8), 2)
    .option('--nodes <n>', 'simulated nodes per cluster', intIn(1, 200), 6)
    .option(
      '--replace-drained',
      'replace a simulated node by a new one (same zone, new name) once it is cordoned and drained, as a cloud’s immutable infrastructure does (the default; given while the sandbox runs: annotate its nodes)',
    )
    .option('--no-replace', 'keep cordoned and drained nodes (no replacement)')
    .option(
      '--with-monitoring',
      'also run Prometheus (every cluster’s pods annotated prometheus.io/scrape) and Alertmanager; prints their URLs (given while the sandbox runs: starts them)',
    )
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
    .command('stop-etcd')
    .description('stop one cluster’s etcd (an outage drill: its API server answers errors); start-etcd brings it back')
    .argument('<context>', 'sandbox context, e.g. kind-workload-1')
    .action(sandboxAction('stop-etcd'));
  sandbox
    .command('start-etcd')
    .description('start a stopped etcd again')
    .argument('<context>', 'sandbox context, e.g. kind-workload-1')
    .action(sandboxAction('start-etcd'));
  const monitoring = sandbox
    .command('monitoring')
    .description('the sandbox’s Prometheus and Alertmanager, on a sandbox that runs (sandbox up --with-monitoring starts them with it)');
  monitoring
    .command('start')
    .description('start Prometheus and Alertmanager (or find them running) and print their URLs once both are ready')
    .action(sandboxAction('monitoring start'));
  monitoring.command('stop').description('stop Prometheus and Alertmanager').action(sandboxAction('monitoring stop'));
  sandbox
    .command('__supervise', { hidden: true })
    .option('--workloads <n>', '', intIn(0, 8), 2)
    .option('--nodes <n>', '', intIn(1, 200), 6)
    .option('--replace-drained', '')
    .option('--no-replace', '')
    .option('--with-monitoring', '')
    .action(sandboxAction('__supervise'));
  for (const cmd of [...sandbox.commands, ...monitoring.commands]) quiet(cmd);
}
