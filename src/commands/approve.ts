import type { KubeConfig } from '@kubernetes/client-node';
import { UsageError, UserError } from '../errors.js';
import { describeError } from '../kube/transport/client.js';
import { decide, listCsrsWithWarnings, watchCsrs, type CsrSummary, type DecideResult, type Decision } from '../kube/csr/index.js';
import { csrJson, csrLines } from '../report/csr-lines.js';
import { clock } from '../store/selectors.js';
import { requireOutput, type GlobalOptions } from '../session/options.js';
import { confirm, interactive } from '../session/prompt.js';
import { startSession } from '../session/session.js';
import { onStop } from '../session/signals.js';
import { document, type OutputFormat, streamItem } from '../output/format.js';

export interface ApproveCommandOptions extends GlobalOptions {
  allFrom?: string;
  deny?: boolean;
  auto?: boolean;
  requester?: string;
  signer?: string;
  yes?: boolean;
  message?: string;
  names?: string[];
}

const write = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

/** The flags that belong together: --auto with --requester and --signer, and nothing else. */
function checkFlags(opts: ApproveCommandOptions, names: string[]): void {
  if (opts.auto) {
    if (!opts.requester || !opts.signer)
      throw new UsageError('--auto needs --requester R and --signer S (which requests to approve automatically)');
    if (names.length || opts.allFrom) throw new UsageError('--auto approves by rule: do not give names or --all-from with it');
    if (opts.deny) throw new UsageError('--auto only approves; --deny cannot be combined with it');
  } else if (opts.requester || opts.signer) {
    throw new UsageError('--requester and --signer belong to --auto (use --all-from REQUESTER to approve what one requester asked for)');
  }
}

/**
 * `fleetdeck approve`: without names lists the pending CSRs of a context with their warnings;
 * with names or --all-from approves (or --deny denies) them after confirmation; with --auto
 * keeps approving new pending CSRs of one requester and signer until Ctrl-C.
 */
export async function runApproveCommand(opts: ApproveCommandOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const names = opts.names ?? [];
  checkFlags(opts, names);
  if (opts.deny && !names.length && opts.allFrom === undefined)
    throw new UsageError('--deny needs the requests to deny: their names, or --all-from REQUESTER');
  const changing = opts.auto || names.length > 0 || opts.allFrom !== undefined;
  const session = startSession(opts);
  if (changing) session.assertWritable(`approve ${opts.deny ? 'denies' : 'approves'} certificate requests`);
  // The context checked before --yes is asked for.
  const { kc, context } = session.one('approve works on one cluster');
  if (changing && !opts.yes && !interactive())
    throw new UsageError(`${opts.deny ? 'denying' : 'approving'} changes the cluster: confirm with --yes`);
  if (opts.auto) return runAuto(kc, context, opts.requester!, opts.signer!, opts, output);

  let all: CsrSummary[];
  try {
    all = await listCsrsWithWarnings(kc);
  } catch (err) {
    throw new UserError(`cannot list the certificate signing requests of ${context}: ${describeError(err)}`);
  }
  const pending = all.filter((c) => c.condition === 'Pending');
  if (!changing) return listPending(pending, context, output);
  const targets = targetsOf(all, pending, names, opts.allFrom, context);
  if (targets.length === 0) {
    if (output !== 'text') write(document(output, { context, results: [] }));
    else write(`No pending certificate signing requests from ${opts.allFrom} in ${context}.`);
    return 0;
  }
  return decideTargets(kc, context, targets, opts, output);
}

/** Without names: the pending requests with their warnings, and how to approve them. */
function listPending(pending: CsrSummary[], context: string, output: OutputFormat): number {
  if (output !== 'text') write(document(output, { context, pending: pending.map((c) => csrJson(c)) }));
  else if (pending.length === 0) write(`No pending certificate signing requests in ${context}.`);
  else {
    write(`${pending.length} pending certificate signing request${pending.length === 1 ? '' : 's'} in ${context}:`);
    for (const c of pending) for (const l of csrLines(c)) write(l);
    write(`Approve with: fleetdeck approve --context ${context} NAME… (or --all-from REQUESTER); --deny to deny.`);
  }
  return 0;
}

/** The targets: the names given (each must exist), then the pending ones of --all-from; none when --all-from alone finds nothing. */
function targetsOf(all: CsrSummary[], pending: CsrSummary[], names: string[], allFrom: string | undefined, context: string): CsrSummary[] {
  const targets: CsrSummary[] = [];
  for (const n of names) {
    const c = all.find((x) => x.name === n);
    if (!c)
      throw new UserError(
        `no certificate signing request named "${n}" in ${context}; run fleetdeck approve --context ${context} to list the pending ones`,
      );
    if (!targets.includes(c)) targets.push(c);
  }
  if (allFrom !== undefined) {
    for (const c of pending.filter((x) => x.requester === allFrom)) if (!targets.includes(c)) targets.push(c);
  }
  return targets;
}

/** Shows the targets, asks (unless --yes), then decides each one through the approval subresource. */
async function decideTargets(
  kc: KubeConfig,
  context: string,
  targets: CsrSummary[],
  opts: ApproveCommandOptions,
  output: OutputFormat,
): Promise<number> {
  const decision: Decision = opts.deny ? 'Denied' : 'Approved';
  const verb = decision === 'Approved' ? 'Approve' : 'Deny';
  if (output === 'text') {
    write(`${verb} in ${context}:`);
    for (const c of targets) for (const l of csrLines(c)) write(l);
  }
  if (!opts.yes) {
    const warned = targets.some((c) => c.warnings.length) ? ' despite the warnings above' : '';
    if (!(await confirm(`${verb} ${targets.length} request${targets.length === 1 ? '' : 's'}${warned}?`))) {
      write('Nothing was changed.');
      return 1;
    }
  }
  const results: (DecideResult | { name: string; outcome: 'error'; line: string })[] = [];
  for (const c of targets) {
    try {
      results.push(
        await decide(kc, c.name, decision, opts.message ?? `${decision === 'Approved' ? 'approved' : 'denied'} with fleetdeck approve`),
      );
    } catch (err) {
      results.push({ name: c.name, outcome: 'error', line: `${c.name}: ${describeError(err)}` });
    }
    const last = results.at(-1)!;
    // A request that could not be decided is an error: on stderr, so scripts see it apart.
    if (last.outcome === 'error' || last.outcome === 'conflict') process.stderr.write(`fleetdeck: ${last.line}\n`);
    else if (output === 'text') write(last.line);
  }
  if (output !== 'text') write(document(output, { context, decision, results }));
  return results.some((r) => r.outcome === 'error' || r.outcome === 'conflict') ? 1 : 0;
}

/** --auto: approve pending CSRs of one requester and signer as they come, until Ctrl-C. */
async function runAuto(
  kc: KubeConfig,
  context: string,
  requester: string,
  signer: string,
  opts: ApproveCommandOptions,
  output: OutputFormat,
): Promise<number> {
  const rule = `requester ${requester}, signer ${signer}`;
  if (!opts.yes && !(await confirm(`Approve automatically every pending request in ${context} from ${rule}, until Ctrl-C?`))) {
    write('Nothing was changed.');
    return 1;
  }
  const emit = (event: Record<string, unknown>, text: string) =>
    write(output !== 'text' ? streamItem(output, { time: new Date().toISOString(), context, ...event }) : `${clock(Date.now())} ${text}`);
  emit(
    { kind: 'auto', requester, signer },
    `Auto-approve on ${context}: every pending request from ${rule} is approved as it comes (Ctrl-C stops).`,
  );
  const rules = autoApprover(kc, context, requester, signer, emit);
  return new Promise<number>((resolve) => {
    const watch = watchCsrs(kc, { onChange: rules.onChange, onError: rules.onError });
    // Ctrl-C, SIGTERM, SIGHUP: the run exits with the signal's code.
    onStop(() => {
      void watch.stop().then(() => {
        emit({ kind: 'stopped' }, 'Auto-approve stopped.');
        resolve(rules.failures() ? 1 : 0);
      });
    });
  });
}

type Emit = (event: Record<string, unknown>, text: string) => void;

/** What --auto does with each change of the CSRs: approve every new pending one the rule matches, once; say each watch error once. */
function autoApprover(kc: KubeConfig, context: string, requester: string, signer: string, emit: Emit) {
  const rule = `requester ${requester}, signer ${signer}`;
  const attempted = new Set<string>();
  let failures = 0;
  let lastError = '';
  const approveOne = (c: CsrSummary) => {
    const warn = c.warnings.length ? ` (warnings: ${c.warnings.join('; ')})` : '';
    decide(kc, c.name, 'Approved', `approved automatically by fleetdeck approve --auto (${rule})`)
      .then((r) =>
        emit(
          { kind: 'decided', name: c.name, outcome: r.outcome, condition: r.condition, warnings: c.warnings },
          `${r.line}${r.outcome === 'changed' ? ` (auto, subject ${c.subject.commonName ?? '-'})` : ''}${warn}`,
        ),
      )
      .catch((err: unknown) => {
        failures++;
        emit({ kind: 'error', name: c.name, error: describeError(err) }, `${c.name}: not approved: ${describeError(err)}`);
      });
  };
  return {
    onChange: (csrs: CsrSummary[]) => {
      for (const c of csrs) {
        if (c.condition !== 'Pending' || c.requester !== requester || c.signer !== signer || attempted.has(c.name)) continue;
        attempted.add(c.name);
        approveOne(c);
      }
    },
    onError: (message: string) => {
      if (message === lastError) return;
      lastError = message;
      emit({ kind: 'watch-error', error: message }, `watch of ${context}: ${message} (retrying)`);
    },
    failures: () => failures,
  };
}
