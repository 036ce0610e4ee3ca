#!/usr/bin/env node
// `kubectl fleetdeck …`: kubectl finds this file as `kubectl-fleetdeck` on PATH and runs it with
// the arguments after "fleetdeck", verbatim, and its own environment (KUBECONFIG included).
// The same command as `fleetdeck`, told first that kubectl started it (src/program/kubectl-plugin.ts).
import { startedAsKubectlPlugin } from './program/invocation.js';

startedAsKubectlPlugin();
await import('./cli.js');
