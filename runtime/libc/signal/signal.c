/* Signals without delivery: handlers and the mask are recorded (so sigaction/signal return
 * the previous disposition), nothing is ever delivered asynchronously. raise() runs a caught
 * handler synchronously; for a default/ignored disposition: SIGABRT → abort(); signals whose
 * default action terminates end the program through _exit(128 + sig) (the engine sees an
 * exit); ignored ones are dropped. kill() of another process is the POSIX model's. */
#include "../internal.h"
#include <errno.h>
#include <signal.h>
#include <string.h>

#define NSIG_MODEL 65

static struct sigaction actions[NSIG_MODEL];
static sigset_t blocked;

static int bad(int sig) { return sig <= 0 || sig >= NSIG_MODEL; }
/* glibc reserves 32 and 33 for its threads: sigaddset/sigdelset refuse them and
 * sigfillset leaves them out. */
static int reserved(int sig) { return sig == 32 || sig == 33; }

int sigemptyset(sigset_t *set) {
  memset(set, 0, sizeof *set);
  return 0;
}
int sigfillset(sigset_t *set) {
  memset(set, 0xff, sizeof *set);
  set->__val[0] &= ~((1UL << 31) | (1UL << 32));
  return 0;
}

#define WORD(sig) ((unsigned)((sig) - 1) / (8 * sizeof(unsigned long)))
#define BIT(sig) (1UL << ((unsigned)((sig) - 1) % (8 * sizeof(unsigned long))))

int sigaddset(sigset_t *set, int sig) {
  if (bad(sig) || reserved(sig)) { errno = EINVAL; return -1; }
  set->__val[WORD(sig)] |= BIT(sig);
  return 0;
}
int sigdelset(sigset_t *set, int sig) {
  if (bad(sig) || reserved(sig)) { errno = EINVAL; return -1; }
  set->__val[WORD(sig)] &= ~BIT(sig);
  return 0;
}
int sigismember(const sigset_t *set, int sig) {
  if (bad(sig)) { errno = EINVAL; return -1; }
  return (set->__val[WORD(sig)] & BIT(sig)) != 0;
}
int sigisemptyset(const sigset_t *set) {
  for (unsigned i = 0; i < sizeof set->__val / sizeof set->__val[0]; i++)
    if (set->__val[i]) return 0;
  return 1;
}

int sigaction(int sig, const struct sigaction *restrict act, struct sigaction *restrict old) {
  if (bad(sig) || (act && (sig == SIGKILL || sig == SIGSTOP))) {
    errno = EINVAL;
    return -1;
  }
  if (old) *old = actions[sig];
  if (act) actions[sig] = *act;
  return 0;
}

__sighandler_t signal(int sig, __sighandler_t handler) {
  struct sigaction act, old;
  memset(&act, 0, sizeof act);
  act.sa_handler = handler;
  act.sa_flags = SA_RESTART;
  if (sigaction(sig, &act, &old) < 0) return SIG_ERR;
  return old.sa_handler;
}
__sighandler_t bsd_signal(int sig, __sighandler_t h) { return signal(sig, h); }
__sighandler_t sysv_signal(int sig, __sighandler_t h) { return signal(sig, h); }

int sigprocmask(int how, const sigset_t *restrict set, sigset_t *restrict old) {
  if (old) *old = blocked;
  if (!set) return 0;
  for (unsigned i = 0; i < sizeof blocked.__val / sizeof blocked.__val[0]; i++) {
    if (how == SIG_BLOCK) blocked.__val[i] |= set->__val[i];
    else if (how == SIG_UNBLOCK) blocked.__val[i] &= ~set->__val[i];
    else if (how == SIG_SETMASK) blocked.__val[i] = set->__val[i];
    else { errno = EINVAL; return -1; }
  }
  return 0;
}

int pthread_sigmask(int how, const sigset_t *restrict set, sigset_t *restrict old) {
  return sigprocmask(how, set, old) < 0 ? errno : 0;
}

int sigpending(sigset_t *set) { return sigemptyset(set); }

static int ignored_by_default(int sig) {
  return sig == SIGCHLD || sig == SIGCONT || sig == SIGURG || sig == SIGWINCH;
}

int raise(int sig) {
  if (bad(sig)) { errno = EINVAL; return -1; }
  struct sigaction *a = &actions[sig];
  if (a->sa_handler == SIG_IGN && sig != SIGKILL && sig != SIGSTOP) return 0;
  if (a->sa_handler != SIG_DFL && sig != SIGKILL && sig != SIGSTOP) {
    if (a->sa_flags & SA_SIGINFO) {
      siginfo_t info;
      memset(&info, 0, sizeof info);
      info.si_signo = sig;
      a->sa_sigaction(sig, &info, NULL);
    } else {
      __sighandler_t h = a->sa_handler;
      if (a->sa_flags & SA_RESETHAND) a->sa_handler = SIG_DFL;
      h(sig);
    }
    return 0;
  }
  if (sig == SIGABRT) abort();
  if (ignored_by_default(sig) || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU || sig == SIGSTOP)
    return 0; /* stop signals: the model never stops */
  _exit(128 + sig);
}

int gsignal(int sig) { return raise(sig); }

int siginterrupt(int sig, int flag) {
  if (bad(sig)) { errno = EINVAL; return -1; }
  if (flag) actions[sig].sa_flags &= ~SA_RESTART;
  else actions[sig].sa_flags |= SA_RESTART;
  return 0;
}
