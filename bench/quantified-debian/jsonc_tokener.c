/* json-c: json_tokener_parse on a symbolic NUL-terminated text of up to N bytes. */
#include <klee/klee.h>
#include <json.h>
#ifndef N
#define N 8
#endif

int main(void) {
  char s[N + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[N] = 0;
  struct json_object *o = json_tokener_parse(s);
  if (o == NULL) return 1;
  int t = json_object_get_type(o);
  json_object_put(o);
  return 2 + t;
}
