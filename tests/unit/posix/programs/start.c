/* End-to-end starter: main builds a KLEE-style argv and enters the POSIX model, which calls
 * the program's main (compiled with -Dmain=__user_main). ARGS is a comma-free list of string
 * literals given with -D. __tsklee_write_console is defined here only until the engine
 * provides it (a definition in the module is used when the engine has none). */
#include <stddef.h>
int __tsklee_posix_main(int argc, char **argv, char **envp);
void __tsklee_write_console(int fd, const void *buf, size_t n) { (void)fd; (void)buf; (void)n; }
int main(void) {
  char *argv[] = {"prog", ARGS, 0};
  return __tsklee_posix_main((int)(sizeof argv / sizeof argv[0]) - 1, argv, 0);
}
