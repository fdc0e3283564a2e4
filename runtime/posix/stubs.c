/*
 * Calls with nothing to model in one symbolic process: terminal speeds, the login records,
 * system information, CPU affinity, select, waiting for signals, inotify, timers, name
 * resolution, raw syscall(). Each gives a fixed, plausible answer or fails with the errno a
 * restricted system gives; none blocks.
 */
#include "internal.h"
#include <errno.h>
#include <netdb.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/sysinfo.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <utmpx.h>

/* ---- termios speeds (the structure only; no descriptor is a terminal) ------------------- */

speed_t cfgetispeed(const struct termios *t) { return t->c_ispeed; }
speed_t cfgetospeed(const struct termios *t) { return t->c_ospeed; }
int cfsetispeed(struct termios *t, speed_t s) {
  t->c_ispeed = s;
  return 0;
}
int cfsetospeed(struct termios *t, speed_t s) {
  t->c_ospeed = s;
  return 0;
}

/* ---- login records: none ---------------------------------------------------------------- */

void setutxent(void) {}
void endutxent(void) {}
struct utmpx *getutxent(void) { return 0; }
int utmpxname(const char *file) { return 0; }

/* ---- system information ----------------------------------------------------------------- */

int sysinfo(struct sysinfo *i) {
  __tsklee_memset(i, 0, sizeof *i);
  i->uptime = 1000;
  i->totalram = 1UL << 30;
  i->freeram = 1UL << 29;
  i->procs = 1;
  i->mem_unit = 1;
  return 0;
}

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set) {
  if (size < sizeof(unsigned long)) {
    errno = EINVAL;
    return -1;
  }
  __tsklee_memset(set, 0, size);
  ((unsigned long *)set)[0] = 1; /* CPU 0 */
  return (int)sizeof(unsigned long);
}

/* Every modelled descriptor is always ready; a timeout-only select just advances the clock. */
int select(int nfds, fd_set *r, fd_set *w, fd_set *x, struct timeval *timeout) {
  int fd, n = 0;
  for (fd = 0; fd < nfds && fd < TK_MAX_FDS; fd++) {
    int open = (__tsklee_env.fds[fd].flags & TK_F_OPEN) != 0;
    if (r && FD_ISSET(fd, r)) {
      if (!open) {
        errno = EBADF;
        return -1;
      }
      n++;
    }
    if (w && FD_ISSET(fd, w)) {
      if (!open) {
        errno = EBADF;
        return -1;
      }
      n++;
    }
  }
  if (x)
    for (fd = 0; fd < nfds && fd < TK_MAX_FDS; fd++) FD_CLR(fd, x);
  if (n == 0 && timeout) __tsklee_env.clock_ns += (long long)timeout->tv_sec * 1000000000LL + timeout->tv_usec * 1000LL;
  return n;
}

/* No signal ever arrives: waiting would block forever; report an interruption instead. */
int pause(void) {
  errno = EINTR;
  return -1;
}
int sigsuspend(const sigset_t *mask) {
  errno = EINTR;
  return -1;
}

int inotify_init(void) {
  errno = ENOSYS;
  return -1;
}
int inotify_init1(int flags) {
  errno = ENOSYS;
  return -1;
}
int inotify_add_watch(int fd, const char *path, uint32_t mask) {
  errno = EBADF;
  return -1;
}
int inotify_rm_watch(int fd, int wd) {
  errno = EBADF;
  return -1;
}

int prctl(int option, ...) { return 0; }

int timer_create(clockid_t id, struct sigevent *restrict ev, timer_t *restrict t) {
  errno = EAGAIN;
  return -1;
}
int timer_settime(timer_t t, int flags, const struct itimerspec *restrict v, struct itimerspec *restrict old) {
  errno = EINVAL;
  return -1;
}
int timer_delete(timer_t t) {
  errno = EINVAL;
  return -1;
}

int getaddrinfo(const char *restrict node, const char *restrict service, const struct addrinfo *restrict hints,
                struct addrinfo **restrict res) {
  return EAI_NONAME;
}
void freeaddrinfo(struct addrinfo *res) {}
int getnameinfo(const struct sockaddr *restrict sa, socklen_t salen, char *restrict host, socklen_t hostlen, char *restrict serv,
                socklen_t servlen, int flags) {
  return EAI_NONAME;
}
const char *gai_strerror(int code) {
  switch (code) {
  case EAI_NONAME: return "Name or service not known";
  case EAI_AGAIN: return "Temporary failure in name resolution";
  case EAI_FAIL: return "Non-recoverable failure in name resolution";
  case EAI_MEMORY: return "Memory allocation failure";
  case EAI_FAMILY: return "ai_family not supported";
  case EAI_SERVICE: return "Servname not supported for ai_socktype";
  case EAI_SYSTEM: return "System error";
  default: return "Unknown error";
  }
}

long syscall(long number, ...) {
  errno = ENOSYS;
  return -1;
}
