import { defineConfig } from 'vitest/config';

// test/ mirrors src/: the test of src/a/b.ts is test/a/b.test.ts. Tests against the real API
// servers of the sandbox end in .int.test.ts; tests that run the built CLI end in .cli.test.ts.
export default defineConfig({
  test: {
    // Tests run as on an operator's machine, even when the machine running them is a pod.
    env: { KUBERNETES_SERVICE_HOST: '', KUBERNETES_SERVICE_PORT: '' },
    reporters: ['default', './test/helpers/cli/summary-reporter.ts'],
    // Two files at a time across the projects (the machines have 2 cores; integration files mostly wait).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ['test/**/*.int.test.ts', 'test/**/*.cli.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      {
        // Runs the built CLI (npm test builds first); no cluster needed.
        extends: true,
        test: {
          name: 'cli',
          include: ['test/**/*.cli.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        // Real kube-apiservers: a sandbox fleet per worker (test/helpers/sandbox/sandbox-setup.ts),
        // two files at a time, each alone on its worker's fleet.
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.int.test.ts'],
          globalSetup: ['test/helpers/sandbox/sandbox-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          maxWorkers: 2,
        },
      },
    ],
  },
});
