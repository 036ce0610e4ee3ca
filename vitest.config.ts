import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/screens/**/*.test.tsx'],
          environment: 'node',
        },
      },
      {
        // Runs the built CLI (npm test builds first); no cluster needed.
        extends: true,
        test: {
          name: 'cli',
          include: ['test/cli/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        // Real kube-apiservers: one sandbox fleet started for the whole run.
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
