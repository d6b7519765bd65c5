// The native reference for the browser tests: the `election` CLI (built
// from this workspace) and an independent encoder of share links.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** The repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(REPO_ROOT, 'target', 'debug', 'election');

let built = false;

/**
 * Builds the CLI once per test process (quick when it is up to date), so
 * the tests never compare against a stale binary.
 */
function buildCli() {
  if (built) return;
  execFileSync('cargo', ['build', '--quiet', '-p', 'election-cli'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  built = true;
}

/**
 * Runs `election run <args> --json` and returns the parsed summary.
 * @param {string[]} args
 * @returns {any}
 */
export function cliRun(args) {
  buildCli();
  const out = execFileSync(CLI, ['run', ...args, '--json'], { cwd: REPO_ROOT, encoding: 'utf8' });
  return JSON.parse(out);
}

/**
 * `election check <args> --json`: exit code 1 when it found a failure,
 * with the report on stdout all the same.
 * @param {string[]} args
 * @returns {any}
 */
export function cliCheck(args) {
  buildCli();
  try {
    const options = { cwd: REPO_ROOT, encoding: /** @type {const} */ ('utf8'), stdio: /** @type {any} */ (['ignore', 'pipe', 'pipe']) };
    return JSON.parse(execFileSync(CLI, ['check', ...args, '--json'], options));
  } catch (e) {
    const err = /** @type {{status?: number, stdout?: string}} */ (e);
    if (err.status === 1 && err.stdout) return JSON.parse(err.stdout);
    throw e;
  }
}

/**
 * Runs `election run --scenario <file> --json` for a scenario object.
 * @param {object} scenario
 * @param {string[]} [extra] more flags, e.g. ['--link']
 * @returns {any}
 */
export function cliRunScenario(scenario, extra = []) {
  const dir = mkdtempSync(join(tmpdir(), 'election-scenario-'));
  const file = join(dir, 'scenario.json');
  writeFileSync(file, JSON.stringify(scenario));
  return cliRun(['--scenario', file, ...extra]);
}

/**
 * The share fragment value of a scenario, `1.<base64url(deflate(json))>`,
 * made here with Node's zlib rather than by the core, so the test also
 * checks that the link format is plain raw DEFLATE + base64url.
 * @param {object} scenario
 * @returns {string}
 */
export function encodeShare(scenario) {
  return `1.${deflateRawSync(Buffer.from(JSON.stringify(scenario))).toString('base64url')}`;
}

/**
 * The scenario in a `#s=1.<data>` fragment or URL.
 * @param {string} url
 * @returns {any}
 */
export function decodeShare(url) {
  const match = /[#&]s=1\.([A-Za-z0-9_-]+)/.exec(url);
  if (!match) throw new Error(`no s=1. share link in ${url}`);
  return JSON.parse(inflateRawSync(Buffer.from(match[1], 'base64url')).toString('utf8'));
}

/**
 * Runs `election <args>` (a command printing JSON with `--json`) and
 * returns the parsed output.
 * @param {string[]} args
 * @returns {any}
 */
export function cliJson(args) {
  buildCli();
  return JSON.parse(execFileSync(CLI, args, { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
}
