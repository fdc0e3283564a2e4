/*
 * A header line "Name: value" with a decimal value, parsed the way libosip parses one (the
 * name up to ':' as in osip_message_set_multiple_header, the value's leading white space
 * skipped, then osip_content_length_parse's digits): four loops in a row, each ending where
 * the input says, and a value accumulated over the digits.
 */
#include <klee/klee.h>
#ifndef N
#define N 10
#endif

static int is_token_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-'; }

int main(void) {
  char s[N + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[N] = 0;
  unsigned i = 0;
  while (is_token_char(s[i])) i++;
  if (i == 0) return 1;      /* empty name */
  if (s[i] != ':') return 2; /* no colon */
  i++;
  while (s[i] == ' ' || s[i] == '\t') i++;
  unsigned start = i;
  unsigned long value = 0;
  while (s[i] >= '0' && s[i] <= '9') {
    value = value * 10 + (unsigned long)(s[i] - '0');
    i++;
  }
  if (i == start) return 3;  /* no value */
  while (s[i] == ' ') i++;
  if (s[i] != 0) return 4;   /* trailing characters */
  return value > 65535 ? 5 : 0;
}
