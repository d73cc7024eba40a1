import { configDefaults, defineConfig } from 'vitest/config';

/**
 * What `npm run test:fast` (`vitest run --mode fast`) leaves out, for a developer's loop: the
 * schema fuzz, the suites that spawn the service as a process (crash safety; the server-process
 * tests of service.test.ts skip themselves when TEST_FAST is set), the browser test and the Java
 * e-invoice validator. CI runs the whole suite (`npm test`).
 */
const SLOW_SUITES = [
  'test/foundation/fuzz.test.ts',
  'test/foundation/crash.test.ts',
  'test/e2e/**',
  'src/modules/finance/einvoice-validation.test.ts',
];

export default defineConfig(({ mode }) => ({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: mode === 'fast' ? [...configDefaults.exclude, ...SLOW_SUITES] : configDefaults.exclude,
    env: mode === 'fast' ? { TEST_FAST: '1' } : {},
    globalSetup: ['./test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
}));
