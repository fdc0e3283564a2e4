/* json-c: json_pointer_get (RFC 6901) with a symbolic path of up to N bytes on a fixed document. */
#include <klee/klee.h>
#include <json.h>
#ifndef N
#define N 8
#endif

int main(void) {
  struct json_object *doc = json_object_new_object();
  struct json_object *arr = json_object_new_array();
  json_object_array_add(arr, json_object_new_int(1));
  json_object_array_add(arr, json_object_new_int(2));
  json_object_object_add(doc, "a", arr);
  json_object_object_add(doc, "b~c", json_object_new_string("x"));
  char path[N + 1];
  klee_make_symbolic(path, sizeof path, "path");
  path[N] = 0;
  struct json_object *res = NULL;
  int r = json_pointer_get(doc, path, &res);
  json_object_put(doc);
  return r == 0 ? 0 : 1;
}
