/** `fleetdeck approve`: pending certificate signing requests of one context. The command's code is loaded when it runs. */
import type { Command } from 'commander';
import { outputOption } from './parsers.js';

export function registerApprove(program: Command): void {
  // fleetdeck approve: pending CertificateSigningRequests of one context.
  program
    .command('approve')
    .description(
      'list the pending certificate signing requests of a context with warnings; approve (or --deny) them by name or requester; --auto approves one requester and signer as they come',
    )
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
      const { runApproveCommand } = await import('../commands/approve.js');
      process.exitCode = await runApproveCommand({ ...cmd.optsWithGlobals(), names });
    });
}
