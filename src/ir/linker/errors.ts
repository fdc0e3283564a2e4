/** A conflict between modules being linked (duplicate definitions, type mismatches, …). One line. */
export class LinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LinkError';
  }
}
