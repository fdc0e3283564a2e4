/*
 * POSIX threads for a program that never gets a second thread (tsklee runs one thread per
 * state): pthread_create fails with EAGAIN, which sort and gnulib handle by doing the work in
 * the calling thread; mutexes, condition variables, once and keys work for that one thread.
 */
#include <errno.h>
#include <pthread.h>

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*start)(void *), void *arg) { return EAGAIN; }
int pthread_join(pthread_t t, void **ret) { return ESRCH; }
int pthread_detach(pthread_t t) { return ESRCH; }
pthread_t pthread_self(void) { return (pthread_t)1; }
int pthread_equal(pthread_t a, pthread_t b) { return a == b; }

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) { return 0; }
int pthread_mutex_destroy(pthread_mutex_t *m) { return 0; }
int pthread_mutex_lock(pthread_mutex_t *m) { return 0; }
int pthread_mutex_trylock(pthread_mutex_t *m) { return 0; }
int pthread_mutex_unlock(pthread_mutex_t *m) { return 0; }

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) { return 0; }
int pthread_cond_destroy(pthread_cond_t *c) { return 0; }
int pthread_cond_signal(pthread_cond_t *c) { return 0; }
int pthread_cond_broadcast(pthread_cond_t *c) { return 0; }
/* Waiting with no other thread to signal would block forever: say so instead of hanging. */
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) { return EDEADLK; }

int pthread_once(pthread_once_t *once, void (*init)(void)) {
  if (*once == PTHREAD_ONCE_INIT) {
    *once = PTHREAD_ONCE_INIT + 1;
    init();
  }
  return 0;
}
