/* Paper 001, not written for tuning: a character-class histogram (a lexer's first pass):
 * a switch over each of N symbolic bytes into vowel / digit / space / punctuation / other,
 * five ways per byte. The counters are compared once at the end. Size: -DN=bytes. */
#include <klee/klee.h>
#ifndef N
#define N 6
#endif
int main(void) {
  char s[N];
  klee_make_symbolic(s, sizeof s, "s");
  int vowels = 0, digits = 0, spaces = 0, punct = 0, other = 0;
  for (int i = 0; i < N; i++) {
    switch (s[i]) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
      vowels++;
      break;
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      digits++;
      break;
    case ' ': case '\t':
      spaces++;
      break;
    case '.': case ',': case ';':
      punct++;
      break;
    default:
      other++;
    }
  }
  if (vowels > digits && spaces == 0) return 1;
  return punct > other ? 2 : 0;
}
