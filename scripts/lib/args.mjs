/**
 * The option reader of the bench scripts: `--name value` or `--name=value` on the command line;
 * `dflt` when absent. (The scripts with many options use node:util's parseArgs instead.)
 */
export function arg(name, dflt, argv = process.argv) {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return dflt;
  const a = argv[i];
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[i + 1];
}
