/* json-c: serialising a string object (json_escape_str's loop over a symbolic string of up to N bytes). */
#include <klee/klee.h>
#include <string.h>
#include <json.h>
#ifndef N
#define N 8
#endif

int main(void) {
  char s[N + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[N] = 0;
  struct json_object *o = json_object_new_string(s);
  const char *out = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
  int r = strlen(out) > strlen(s) + 2 ? 1 : 0; /* something was escaped */
  json_object_put(o);
  return r;
}
