/* errno: one int per program (tsklee runs one thread per state; each state has its own
 * copy of this global, as of all memory). <errno.h> defines errno as (*__errno_location()). */
#include "../internal.h"
#include <errno.h>

static int errno_value;

int *__errno_location(void) { return &errno_value; }

/* glibc's program_invocation_name / program_invocation_short_name (used by error()): the
 * engine or POSIX model may set them from argv[0]; they default to "". */
char *program_invocation_name = "";
char *program_invocation_short_name = "";
