/*
 * Process identity, clocks, system information and limits: fixed, deterministic values.
 *
 * The clock starts at TK_TIME (2023-11-14T22:13:20Z) and every query of time/clock_gettime/
 * gettimeofday advances it by 1 ms, so that elapsed-time loops terminate and every path sees
 * the same sequence of times.
 */
#include "internal.h"
#include <klee/klee.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

uid_t getuid(void) { return TK_UID; }
uid_t geteuid(void) { return TK_UID; }
gid_t getgid(void) { return TK_GID; }
gid_t getegid(void) { return TK_GID; }
pid_t getpid(void) { return TK_PID; }
pid_t getppid(void) { return TK_PPID; }
pid_t getpgrp(void) { return TK_PID; }
pid_t getsid(pid_t pid) { return TK_PID; }
int getgroups(int size, gid_t list[]) {
  if (size == 0) return 1;
  if (size < 1) {
    errno = EINVAL;
    return -1;
  }
  list[0] = TK_GID;
  return 1;
}

static long long tick(void) {
  tk_env *e = &__tsklee_env;
  if (!e->clock_ns) e->clock_ns = (long long)TK_TIME * 1000000000LL;
  e->clock_ns += 1000000;
  return e->clock_ns;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
  long long ns = tick();
  switch (id) {
  case CLOCK_REALTIME:
  case CLOCK_REALTIME_COARSE:
    break;
  case CLOCK_MONOTONIC:
  case CLOCK_MONOTONIC_RAW:
  case CLOCK_MONOTONIC_COARSE:
  case CLOCK_BOOTTIME:
  case CLOCK_PROCESS_CPUTIME_ID:
  case CLOCK_THREAD_CPUTIME_ID:
    ns -= (long long)TK_TIME * 1000000000LL;
    break;
  default:
    errno = EINVAL;
    return -1;
  }
  if (ts) {
    ts->tv_sec = (time_t)(ns / 1000000000LL);
    ts->tv_nsec = (long)(ns % 1000000000LL);
  }
  return 0;
}

int clock_getres(clockid_t id, struct timespec *ts) {
  if (ts) {
    ts->tv_sec = 0;
    ts->tv_nsec = 1;
  }
  return 0;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
  long long ns = tick();
  if (tv) {
    tv->tv_sec = (time_t)(ns / 1000000000LL);
    tv->tv_usec = (long)(ns % 1000000000LL / 1000);
  }
  return 0;
}

time_t time(time_t *t) {
  time_t v = (time_t)(tick() / 1000000000LL);
  if (t) *t = v;
  return v;
}

clock_t clock(void) { return (clock_t)((tick() - (long long)TK_TIME * 1000000000LL) / 1000); }

int nanosleep(const struct timespec *req, struct timespec *rem) {
  if (req) __tsklee_env.clock_ns += (long long)req->tv_sec * 1000000000LL + req->tv_nsec;
  if (rem) rem->tv_sec = rem->tv_nsec = 0;
  return 0;
}
unsigned sleep(unsigned s) {
  __tsklee_env.clock_ns += (long long)s * 1000000000LL;
  return 0;
}
int usleep(useconds_t us) {
  __tsklee_env.clock_ns += (long long)us * 1000LL;
  return 0;
}
unsigned alarm(unsigned s) { return 0; }

int getpagesize(void) { return 4096; }

long sysconf(int name) {
  switch (name) {
  case _SC_PAGESIZE: return 4096;
  case _SC_CLK_TCK: return 100;
  case _SC_OPEN_MAX: return TK_MAX_FDS;
  case _SC_NPROCESSORS_CONF:
  case _SC_NPROCESSORS_ONLN: return 1;
  case _SC_ARG_MAX: return 2097152;
  case _SC_CHILD_MAX: return 63459;
  case _SC_NGROUPS_MAX: return 65536;
  case _SC_LINE_MAX: return 2048;
  case _SC_HOST_NAME_MAX: return 64;
  case _SC_LOGIN_NAME_MAX: return 256;
  case _SC_TTY_NAME_MAX: return 32;
  case _SC_GETPW_R_SIZE_MAX:
  case _SC_GETGR_R_SIZE_MAX: return 1024;
  case _SC_PHYS_PAGES: return 262144; /* 1 GiB */
  case _SC_AVPHYS_PAGES: return 131072;
  case _SC_VERSION: return 200809L;
  case _SC_SYMLOOP_MAX: return -1; /* no limit, errno unchanged */
  default:
    errno = EINVAL;
    return -1;
  }
}

long pathconf(const char *path, int name) {
  if (__tsklee_lookup(AT_FDCWD, path) < 0) {
    errno = ENOENT;
    return -1;
  }
  switch (name) {
  case _PC_NAME_MAX: return 255;
  case _PC_PATH_MAX: return 4096;
  case _PC_PIPE_BUF: return 4096;
  case _PC_LINK_MAX: return 65000;
  default: return -1;
  }
}
long fpathconf(int fd, int name) {
  switch (name) {
  case _PC_NAME_MAX: return 255;
  case _PC_PATH_MAX: return 4096;
  case _PC_PIPE_BUF: return 4096;
  case _PC_LINK_MAX: return 65000;
  default: return -1;
  }
}

static void copy_field(char *d, const char *s) {
  size_t n = __tsklee_strlen(s);
  if (n > 64) n = 64;
  __tsklee_memcpy(d, s, n);
  d[n] = 0;
}

int uname(struct utsname *u) {
  if (!u) {
    errno = EFAULT;
    return -1;
  }
  copy_field(u->sysname, "Linux");
  copy_field(u->nodename, "tsklee");
  copy_field(u->release, "6.1.0-tsklee");
  copy_field(u->version, "#1 SMP");
  copy_field(u->machine, "x86_64");
#ifdef _GNU_SOURCE
  copy_field(u->domainname, "(none)");
#endif
  return 0;
}

int gethostname(char *name, size_t len) {
  const char *h = "tsklee";
  size_t n = __tsklee_strlen(h);
  if (len < n + 1) {
    errno = ENAMETOOLONG;
    return -1;
  }
  __tsklee_memcpy(name, h, n + 1);
  return 0;
}

static struct rlimit limits[RLIM_NLIMITS];
static int limits_set;

static void init_limits(void) {
  int i;
  if (limits_set) return;
  limits_set = 1;
  for (i = 0; i < RLIM_NLIMITS; i++) limits[i].rlim_cur = limits[i].rlim_max = RLIM_INFINITY;
  limits[RLIMIT_NOFILE].rlim_cur = limits[RLIMIT_NOFILE].rlim_max = TK_MAX_FDS;
  limits[RLIMIT_STACK].rlim_cur = 8 << 20;
  limits[RLIMIT_CORE].rlim_cur = 0;
}

int getrlimit(__rlimit_resource_t res, struct rlimit *r) {
  init_limits();
  if ((int)res < 0 || (int)res >= RLIM_NLIMITS) {
    errno = EINVAL;
    return -1;
  }
  *r = limits[res];
  return 0;
}
int setrlimit(__rlimit_resource_t res, const struct rlimit *r) {
  init_limits();
  if ((int)res < 0 || (int)res >= RLIM_NLIMITS || r->rlim_cur > r->rlim_max) {
    errno = EINVAL;
    return -1;
  }
  if (r->rlim_max > limits[res].rlim_max) {
    errno = EPERM;
    return -1;
  }
  limits[res] = *r;
  return 0;
}
int getrlimit64(__rlimit_resource_t res, struct rlimit64 *r) { return getrlimit(res, (struct rlimit *)r); }
int setrlimit64(__rlimit_resource_t res, const struct rlimit64 *r) { return setrlimit(res, (const struct rlimit *)r); }

int sigaltstack(const stack_t *ss, stack_t *old) {
  if (old) {
    old->ss_sp = 0;
    old->ss_size = 0;
    old->ss_flags = SS_DISABLE;
  }
  return 0;
}

/* Signals to ourselves (or our group) run synchronously (libc's raise); the only other process is the parent. */
int kill(pid_t pid, int sig) {
  if (sig < 0 || sig >= NSIG) {
    errno = EINVAL;
    return -1;
  }
  if (pid == TK_PID || pid == 0) return sig ? raise(sig) : 0;
  /* the parent exists (and decides what the signal does to it); -1 reaches no one: Linux never
     signals the caller with it, and there is no other process */
  if (pid == TK_PPID) return 0;
  errno = ESRCH;
  return -1;
}
