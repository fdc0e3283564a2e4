/* exit, atexit, on_exit, _Exit, quick_exit. exit() runs the handlers registered with
 * atexit/on_exit in reverse order, then the hook the stdio layer registers to flush its
 * streams (__tsklee_stdio_flush_hook, NULL until stdio exists), then calls _exit(), which
 * the engine models. abort() and _exit() are engine special functions (not defined here). */
#include "../internal.h"
#include <stdlib.h>

#define MAX_HANDLERS 64

struct handler {
  int kind; /* 0: atexit fn(), 1: on_exit fn2(status, arg), 2: __cxa_atexit fn3(arg) */
  void (*fn)(void);
  void (*fn2)(int, void *);
  void (*fn3)(void *);
  void *arg;
};

static struct handler handlers[MAX_HANDLERS];
static int nhandlers;
static void (*quick_handlers[MAX_HANDLERS])(void);
static int nquick;

/* Set by the stdio implementation (later) to flush and close streams at exit. */
void (*__tsklee_stdio_flush_hook)(void);

int atexit(void (*fn)(void)) {
  if (nhandlers >= MAX_HANDLERS) return -1;
  handlers[nhandlers].kind = 0;
  handlers[nhandlers].fn = fn;
  nhandlers++;
  return 0;
}

/* What glibc's atexit() expands to in some objects (libc_nonshared). */
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso) {
  (void)dso;
  if (nhandlers >= MAX_HANDLERS) return -1;
  handlers[nhandlers].kind = 2;
  handlers[nhandlers].fn3 = fn;
  handlers[nhandlers].arg = arg;
  nhandlers++;
  return 0;
}

int on_exit(void (*fn)(int, void *), void *arg) {
  if (nhandlers >= MAX_HANDLERS) return -1;
  handlers[nhandlers].kind = 1;
  handlers[nhandlers].fn2 = fn;
  handlers[nhandlers].arg = arg;
  nhandlers++;
  return 0;
}

int at_quick_exit(void (*fn)(void)) {
  if (nquick >= MAX_HANDLERS) return -1;
  quick_handlers[nquick++] = fn;
  return 0;
}

void exit(int status) {
  /* handlers may register more handlers: take them one at a time from the top */
  while (nhandlers > 0) {
    struct handler h = handlers[--nhandlers];
    if (h.kind == 0) h.fn();
    else if (h.kind == 1) h.fn2(status, h.arg);
    else h.fn3(h.arg);
  }
  if (__tsklee_stdio_flush_hook) __tsklee_stdio_flush_hook();
  _exit(status);
}

void quick_exit(int status) {
  while (nquick > 0) quick_handlers[--nquick]();
  _exit(status);
}

void _Exit(int status) { _exit(status); }
