// @ts-check
// The command line of the wasm bench scripts (bench-wasm.mjs, bench-ab.mjs):
// --repeat N and --only id,id, and for bench-ab the build directories.

/**
 * Reads `--repeat N`, `--only id,id` and, when `usage` names them,
 * positional arguments; exits with status 2 and one message naming the
 * flag on bad input.
 * @param {string[]} args the arguments after the script's name
 * @param {{ repeat: number, usage: string, positional: boolean }} opts
 *   the default repeat count, the usage line, whether positionals are taken
 * @returns {{ repeat: number, only: string[] | null, rest: string[] }}
 */
export function benchArgs(args, { repeat, usage, positional }) {
  /** @type {string[] | null} */
  let only = null;
  /** @type {string[]} */
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--repeat') {
      repeat = Number(args[++i]);
      if (!Number.isInteger(repeat) || repeat < 1 || repeat > 1000) {
        console.error('--repeat: want a whole number from 1 to 1000');
        process.exit(2);
      }
    } else if (args[i] === '--only') {
      only = String(args[++i] ?? '').split(',').filter(Boolean);
    } else if (!positional || args[i].startsWith('--')) {
      console.error(`unknown argument ${args[i]}; usage: ${usage}`);
      process.exit(2);
    } else {
      rest.push(args[i]);
    }
  }
  return { repeat, only, rest };
}
