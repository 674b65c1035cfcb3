import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';
import { buildServer } from './server-process.js';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '..', '..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

let built: ReturnType<typeof buildServer> | null = null;
afterAll(async () => (await built)?.remove());

/**
 * The CLI as production runs it: the bundle `npm run build` makes (dist/cli.js), built once per
 * test file. Spawning `tsx src/cli.ts` compiled the sources on every call, 2–5 s each under load.
 */
function cliBundle(): Promise<string> {
  built ??= buildServer();
  return built.then((b) => b.cli);
}

/** Runs `npm run cli -- <args>` as an operator would (a separate process), with extra env. */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  const cli = await cliBundle();
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      cwd: serverDir,
      env: { ...process.env, NODE_ENV: 'test', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as CliResult;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
