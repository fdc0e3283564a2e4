/**
 * The command line of each utility's run: KLEE's OSDI'08 coreutils experiment
 * (klee-se.org/docs/coreutils-experiments): the same symbolic environment for every utility,
 * larger for the eight the KLEE authors gave more after reading their manuals.
 */
export const DEFAULT_ARGS = ['--sym-args', '0', '1', '10', '--sym-args', '0', '2', '2', '--sym-files', '1', '8', '--sym-stdin', '8', '--sym-stdout'];

const SPECIAL = {
  dd: '--sym-args 0 3 10 --sym-files 1 8 --sym-stdin 8 --sym-stdout',
  dircolors: '--sym-args 0 3 10 --sym-files 2 12 --sym-stdin 12 --sym-stdout',
  echo: '--sym-args 0 4 300 --sym-files 2 30 --sym-stdin 30 --sym-stdout',
  expr: '--sym-args 0 1 10 --sym-args 0 3 2 --sym-stdout',
  mknod: '--sym-args 0 1 10 --sym-args 0 3 2 --sym-files 1 8 --sym-stdin 8 --sym-stdout',
  od: '--sym-args 0 3 10 --sym-files 2 12 --sym-stdin 12 --sym-stdout',
  pathchk: '--sym-args 0 1 2 --sym-args 0 1 300 --sym-files 1 8 --sym-stdin 8 --sym-stdout',
  printf: '--sym-args 0 3 10 --sym-files 2 12 --sym-stdin 12 --sym-stdout',
};

/** The program arguments (after NAME.bc) of `utility`'s run. */
export function programArgs(utility) {
  return SPECIAL[utility]?.split(' ') ?? DEFAULT_ARGS;
}

/**
 * tsklee's options for every run, after KLEE's experiment command (--max-memory=1000,
 * --max-solver-time=30s, random-path interleaved with nurs:covnew, which is tsklee's default
 * search, and --only-output-states-covering-new as in KLEE's coreutils tutorial).
 */
export function runOptions(maxTime) {
  return ['--libc=tsklee', '--posix-runtime', `--max-time=${maxTime}`, '--max-memory=1000', '--max-solver-time=30s', '--only-output-states-covering-new'];
}

/**
 * The same experiment with KLEE itself (`--klee PATH`): KLEE's options from its coreutils
 * experiments (uclibc for its libc); the program arguments are programArgs'.
 */
export function kleeRunOptions(maxTime) {
  return ['--libc=uclibc', '--posix-runtime', `--max-time=${maxTime}`, '--max-memory=1000', '--max-solver-time=30s', '--only-output-states-covering-new'];
}
