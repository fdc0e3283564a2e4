/*
 * main for an AddressSanitizer build of a utility (its own main renamed tsklee_asan_main):
 * every argument is copied into a heap block of exactly its size, as tsklee's POSIX model gives
 * each argument an object of its own. Natively the argument strings lie back to back on the
 * stack, where reading past one's end reads the next one and ASan sees nothing.
 */
#include <stdlib.h>
#include <string.h>

int tsklee_asan_main(int argc, char **argv);

int main(int argc, char **argv) {
  char **copy = malloc((size_t)(argc + 1) * sizeof *copy);
  for (int i = 0; i < argc; i++) {
    size_t n = strlen(argv[i]) + 1;
    copy[i] = malloc(n);
    memcpy(copy[i], argv[i], n);
  }
  copy[argc] = NULL;
  return tsklee_asan_main(argc, copy);
}
