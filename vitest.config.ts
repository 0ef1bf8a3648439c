import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    globals: true,
    // A process per test file: each gets its own temporary database and settings.
    pool: "forks",
    setupFiles: ["tests/support/setup.ts"],
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["app/**/*.test.ts", "app/**/*.test.tsx", "db/**/*.test.ts"] },
      },
      {
        extends: true,
        // A few tests send a thousand requests or gzip 36 MB: room for a busy machine.
        test: { name: "integration", include: ["tests/integration/**/*.test.ts"], testTimeout: 30_000 },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/e2e/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // expect.poll waits for a round trip to the server or a re-render (1 s by default: too
          // short on a busy machine).
          expect: { poll: { timeout: 10_000 } },
          // One browser at a time is plenty for two cores.
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
