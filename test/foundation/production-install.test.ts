/**
 * The supported production install (README, docs/operations.md):
 *   npm ci && npm run build && npm prune --omit=dev && npm start
 * in a copy of the working tree: the start needs no dev dependency (esbuild is gone after the
 * prune, and nothing is rebuilt), serves /health, the admin and `/`; a source changed after the
 * prune is refused with a message naming the supported path instead of a stack trace.
 *
 * Slow (a full `npm ci` into an empty folder: about a minute here, more on a loaded machine), so
 * it runs in CI (CI=true) or when PRODUCTION_INSTALL_TEST=1, and is skipped otherwise.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const run = process.env.CI === 'true' || process.env.PRODUCTION_INSTALL_TEST === '1';
const dir = mkdtempSync(join(tmpdir(), 'prod-install-'));
let server: ChildProcess | undefined;

afterAll(() => {
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

const npm = (args: string[]) => execFileSync('npm', [...args, '--no-audit', '--no-fund'], { cwd: dir, stdio: 'pipe' });

describe.skipIf(!run)('production install', () => {
  it('npm ci && npm run build && npm prune --omit=dev && npm start serves the API and the admin', async () => {
    // the working tree as a fresh clone would have it (tracked and new files, no dist/ or node_modules)
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { encoding: 'utf8' })
      .split('\0')
      .filter((f) => f && existsSync(f));
    for (const f of files) {
      mkdirSync(join(dir, dirname(f)), { recursive: true });
      cpSync(f, join(dir, f));
    }
    npm(['ci', '--prefer-offline']);
    npm(['run', 'build']);
    npm(['prune', '--omit=dev']);
    expect(existsSync(join(dir, 'node_modules/esbuild'))).toBe(false);
    expect(existsSync(join(dir, 'dist/web/admin/index.html'))).toBe(true);

    const port = await freePort();
    server = spawn('npm', ['start'], {
      cwd: dir,
      detached: true,
      stdio: 'ignore',
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: 'memory',
        LOG_LEVEL: 'warn',
        NODE_ENV: '',
      },
    });
    const base = `http://127.0.0.1:${port}`;
    const until = Date.now() + 120_000;
    let ready = false;
    while (!ready && Date.now() < until) {
      ready = await fetch(`${base}/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (!ready) await new Promise((r) => setTimeout(r, 500));
    }
    expect(ready).toBe(true);
    const admin = await fetch(`${base}/admin/`);
    expect(admin.status).toBe(200);
    expect(admin.headers.get('content-security-policy')).toContain("script-src 'self'");
    const home = await fetch(`${base}/`, { headers: { accept: 'application/json' } });
    expect(await home.json()).toMatchObject({ name: 'commerce-service', links: { admin: '/admin/' } });

    // a source changed after the prune: a clear refusal, not a crash inside the import
    const past = new Date(Date.now() + 60_000);
    utimesSync(join(dir, 'web/admin/main.tsx'), past, past);
    const rebuild = spawnSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(rebuild.status).toBe(1);
    expect(rebuild.stderr).toContain('esbuild is not installed');
    expect(rebuild.stderr).toContain('npm ci && npm run build && npm prune --omit=dev && npm start');
  }, 600_000);
});
