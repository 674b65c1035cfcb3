import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = path.resolve(serverDir, '..', '..', 'node_modules', '.bin', 'tsx');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run cli -- <args>` as an operator would (a separate process), with extra env. */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(tsx, ['src/cli.ts', ...args], {
      cwd: serverDir,
      env: { ...process.env, NODE_ENV: 'test', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as CliResult;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
