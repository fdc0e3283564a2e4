/** An expected failure of a subject script: printed as one line, exit status 1. */
export class SubjectError extends Error {
  name = 'SubjectError';
}
