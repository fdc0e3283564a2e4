/* FILE streams: the same scenarios run on glibc's stdio and on tsklee's (through a table
 * of function pointers), each on its own temp file; every result is logged and the two
 * logs and final file contents compared. Also the <stdio.h> inline getc/putc fast paths
 * (_IO_read_ptr/_IO_write_ptr + __uflow/__overflow) on tsklee streams. */
#include "check.h"
#include <stdio_ext.h>
#include <stdarg.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>

#define DECL(ret, name, args) ret tsklee_##name args;
DECL(FILE *, fopen, (const char *, const char *))
DECL(FILE *, fdopen, (int, const char *))
DECL(int, fclose, (FILE *))
DECL(size_t, fwrite, (const void *, size_t, size_t, FILE *))
DECL(size_t, fread, (void *, size_t, size_t, FILE *))
DECL(char *, fgets, (char *, int, FILE *))
DECL(int, fputs, (const char *, FILE *))
DECL(int, fputc, (int, FILE *))
DECL(int, fgetc, (FILE *))
DECL(int, ungetc, (int, FILE *))
DECL(int, fseek, (FILE *, long, int))
DECL(long, ftell, (FILE *))
DECL(ssize_t, getline, (char **, size_t *, FILE *))
DECL(ssize_t, getdelim, (char **, size_t *, int, FILE *))
DECL(int, fflush, (FILE *))
DECL(int, feof, (FILE *))
DECL(int, ferror, (FILE *))
DECL(int, fprintf, (FILE *, const char *, ...))
DECL(int, __isoc99_fscanf, (FILE *, const char *, ...))
DECL(void, rewind, (FILE *))
DECL(int, setvbuf, (FILE *, char *, int, size_t))
DECL(size_t, __fpending, (FILE *))
DECL(int, __freading, (FILE *))
DECL(int, __fwriting, (FILE *))
DECL(int, fileno, (FILE *))
DECL(void, clearerr, (FILE *))
DECL(int, puts, (const char *))
DECL(int, printf, (const char *, ...))
DECL(void, __fpurge, (FILE *))
DECL(int, __uflow, (FILE *))
DECL(int, __overflow, (FILE *, int))
DECL(int, fseeko, (FILE *, off_t, int))
DECL(off_t, ftello, (FILE *))
extern FILE *tsklee_stdout, *tsklee_stderr, *tsklee_stdin;

struct ops {
  FILE *(*fopen)(const char *, const char *);
  FILE *(*fdopen)(int, const char *);
  int (*fclose)(FILE *);
  size_t (*fwrite)(const void *, size_t, size_t, FILE *);
  size_t (*fread)(void *, size_t, size_t, FILE *);
  char *(*fgets)(char *, int, FILE *);
  int (*fputs)(const char *, FILE *);
  int (*fputc)(int, FILE *);
  int (*fgetc)(FILE *);
  int (*ungetc)(int, FILE *);
  int (*fseek)(FILE *, long, int);
  long (*ftell)(FILE *);
  ssize_t (*getline)(char **, size_t *, FILE *);
  ssize_t (*getdelim)(char **, size_t *, int, FILE *);
  int (*fflush)(FILE *);
  int (*feof)(FILE *);
  int (*ferror)(FILE *);
  int (*fprintf)(FILE *, const char *, ...);
  int (*fscanf)(FILE *, const char *, ...);
  void (*rewind)(FILE *);
  int (*setvbuf)(FILE *, char *, int, size_t);
  size_t (*fpending)(FILE *);
  int (*freading)(FILE *);
  int (*fwriting)(FILE *);
  int (*fileno)(FILE *);
  void (*clearerr)(FILE *);
  int (*fseeko)(FILE *, off_t, int);
  off_t (*ftello)(FILE *);
};

static const struct ops glibc_ops = {fopen, fdopen, fclose, fwrite, fread, fgets, fputs, fputc, fgetc, ungetc, fseek, ftell,
  getline, getdelim, fflush, feof, ferror, fprintf, fscanf, rewind, setvbuf, __fpending, __freading, __fwriting, fileno,
  clearerr, fseeko, ftello};
static const struct ops our_ops = {tsklee_fopen, tsklee_fdopen, tsklee_fclose, tsklee_fwrite, tsklee_fread, tsklee_fgets,
  tsklee_fputs, tsklee_fputc, tsklee_fgetc, tsklee_ungetc, tsklee_fseek, tsklee_ftell, tsklee_getline, tsklee_getdelim,
  tsklee_fflush, tsklee_feof, tsklee_ferror, tsklee_fprintf, tsklee___isoc99_fscanf, tsklee_rewind, tsklee_setvbuf,
  tsklee___fpending, tsklee___freading, tsklee___fwriting, tsklee_fileno, tsklee_clearerr, tsklee_fseeko, tsklee_ftello};

static char logbuf[2][1 << 20];
static size_t loglen[2];
static int cur;
static void logf_(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  loglen[cur] += (size_t)vsnprintf(logbuf[cur] + loglen[cur], sizeof logbuf[0] - loglen[cur], fmt, ap);
  va_end(ap);
}
#define LOG(...) logf_(__VA_ARGS__)
/* two results, evaluated left to right */
#define SEQ2(what, a, b) do { long long a_ = (long long)(a); long long b_ = (long long)(b); LOG("%s %lld %lld\n", what, a_, b_); } while (0)

static char *slurp(const char *path, size_t *n) {
  static char b[2][1 << 18];
  int fd = open(path, O_RDONLY);
  ssize_t r = read(fd, b[cur], sizeof b[0]);
  close(fd);
  *n = r < 0 ? 0 : (size_t)r;
  return b[cur];
}

static void scenario(const struct ops *o, const char *path, int variant) {
  char buf[512];
  int bufmode = variant % 3 == 0 ? _IOFBF : variant % 3 == 1 ? _IOLBF : _IONBF;
  size_t bsz = variant % 2 ? 7 : 0;
  FILE *f = o->fopen(path, "w+");
  LOG("open %d\n", f != NULL);
  if (variant) LOG("setvbuf %d\n", o->setvbuf(f, NULL, bufmode, bsz));
  for (int i = 0; i < 300; i++) {
    if (i % 3 == 0) LOG("fprintf %d\n", o->fprintf(f, "line %d: %s %.3f\n", i, "text", i / 7.0));
    else if (i % 3 == 1) LOG("fputs %d\n", o->fputs("a line without number\n", f));
    else { for (int k = 0; k < 10; k++) o->fputc('a' + k, f); LOG("fputc pending=%d\n", (int)(o->fpending(f) > 0)); o->fputc('\n', f); }
  }
  LOG("fwriting %d\n", o->fwriting(f) != 0);
  LOG("ftell %ld\n", o->ftell(f));
  o->rewind(f);
  LOG("after rewind ftell %ld\n", o->ftell(f));
  while (o->fgets(buf, variant % 4 == 3 ? 9 : sizeof buf, f)) LOG("fgets [%s] tell=%ld\n", buf, o->ftell(f));
  SEQ2("feof ferror", o->feof(f), o->ferror(f));
  o->clearerr(f);
  LOG("feof after clearerr %d\n", o->feof(f));
  LOG("fseek %d\n", o->fseek(f, 10, SEEK_SET));
  SEQ2("fgetc fgetc", o->fgetc(f), o->fgetc(f));
  LOG("ungetc %d\n", o->ungetc('Z', f));
  LOG("ftell after ungetc %ld\n", o->ftell(f));
  LOG("fgetc %d\n", o->fgetc(f));
  SEQ2("ungetc Y X", o->ungetc('Y', f), o->ungetc('X', f));
  LOG("fread %zu\n", o->fread(buf, 1, 5, f));
  buf[5] = 0;
  LOG("read [%s]\n", buf);
  SEQ2("tell freading", o->ftell(f), o->freading(f) != 0);
  SEQ2("fseek cur, tell", o->fseek(f, -3, SEEK_CUR), o->ftell(f));
  LOG("fwrite %zu\n", o->fwrite("OVERWRITE", 1, 9, f));
  LOG("tell %ld\n", o->ftell(f));
  LOG("fgetc after write (after fseek) %d\n", (o->fseek(f, 0, SEEK_CUR), o->fgetc(f)));
  SEQ2("fseek end, tell", o->fseek(f, 0, SEEK_END), o->ftell(f));
  SEQ2("fgetc at end, eof", o->fgetc(f), o->feof(f));
  SEQ2("fseeko ftello", o->fseeko(f, 100, SEEK_SET), o->ftello(f));
  {
    int a = -1, b = -1; char w[32] = "";
    LOG("fscanf %d", o->fscanf(f, "%d %31s %d", &a, w, &b));
    LOG(" %d [%s] %d tell=%ld\n", a, w, b, o->ftell(f));
  }
  o->rewind(f);
  char *line = NULL; size_t cap = 0; ssize_t n;
  int lines = 0;
  while ((n = o->getline(&line, &cap, f)) > 0) { if (lines++ % 37 == 0) LOG("getline %zd [%s]\n", n, line); }
  LOG("getline end %zd lines=%d\n", n, lines);
  o->rewind(f);
  while ((n = o->getdelim(&line, &cap, ':', f)) > 0) { if (lines++ % 41 == 0) LOG("getdelim %zd\n", n); }
  free(line);
  LOG("fclose %d\n", o->fclose(f));
  /* append mode and reading a file in "r" */
  f = o->fopen(path, "a");
  LOG("append tell=%ld\n", o->ftell(f));
  LOG("append fprintf %d\n", o->fprintf(f, "appended %s\n", "tail"));
  LOG("append tell=%ld\n", o->ftell(f));
  LOG("fclose %d\n", o->fclose(f));
  f = o->fopen(path, "r");
  SEQ2("fwrite on r, ferror", o->fwrite("x", 1, 1, f), o->ferror(f));
  o->clearerr(f);
  LOG("fseek -20 end %d\n", o->fseek(f, -20, SEEK_END));
  LOG("fread %zu\n", o->fread(buf, 1, sizeof buf, f));
  LOG("eof %d\n", o->feof(f));
  LOG("fclose %d\n", o->fclose(f));
  {
    FILE *m = o->fopen("/nonexistent/dir/x", "r");
    LOG("fopen missing %d errno=%d\n", m != NULL, errno); /* errno: glibc's open() sets it in both */
  }
  /* fdopen */
  int fd = open(path, O_RDONLY);
  f = o->fdopen(fd, "r");
  SEQ2("fdopen fileno ok, first", o->fileno(f) == fd, o->fgetc(f));
  LOG("fclose %d\n", o->fclose(f));
}

int main(void) {
  char path[2][64];
  verbose_ok = 0;
  for (int variant = 0; variant < 8; variant++) {
    for (cur = 0; cur < 2; cur++) {
      snprintf(path[cur], sizeof path[cur], "/tmp/tsklee-stdio-%d-%d", (int)getpid(), cur);
      loglen[cur] = 0;
      scenario(cur == 0 ? &glibc_ops : &our_ops, path[cur], variant);
    }
    /* compare line by line */
    char *a = logbuf[0], *b = logbuf[1];
    int line = 0;
    while (*a || *b) {
      char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
      size_t la = ea ? (size_t)(ea - a) : strlen(a), lb = eb ? (size_t)(eb - b) : strlen(b);
      char d[600];
      snprintf(d, sizeof d, "variant %d line %d glibc=[%.*s] tsklee=[%.*s]", variant, line, (int)(la > 250 ? 250 : la), a,
               (int)(lb > 250 ? 250 : lb), b);
      result(la == lb && memcmp(a, b, la) == 0, "log", d);
      a += la + (ea ? 1 : 0);
      b += lb + (eb ? 1 : 0);
      line++;
      if (line > 100000) break;
    }
    size_t n0, n1;
    cur = 0; char *c0 = slurp(path[0], &n0);
    cur = 1; char *c1 = slurp(path[1], &n1);
    CHECK_INT("file size", n0, n1);
    result(n0 == n1 && memcmp(c0, c1, n0) == 0, "file contents", NULL);
    unlink(path[0]);
    unlink(path[1]);
  }
  /* glibc's inline fast paths on our FILE: getc_unlocked/putc_unlocked macros */
  {
    char p[64];
    snprintf(p, sizeof p, "/tmp/tsklee-stdio-inline-%d", (int)getpid());
    FILE *f = tsklee_fopen(p, "w+");
#define __uflow tsklee___uflow
#define __overflow tsklee___overflow
    for (int i = 0; i < 20000; i++) __putc_unlocked_body('a' + i % 26, f); /* the body of <stdio.h>'s inline putc_unlocked */
    CHECK_INT("ferror macro", 0, ferror_unlocked(f));
    tsklee_rewind(f);
    long sum = 0, count = 0;
    int c;
    while ((c = __getc_unlocked_body(f)) != EOF) { sum += c; count++; }
    long esum = 0;
    for (int i = 0; i < 20000; i++) esum += 'a' + i % 26;
    CHECK_INT("getc macro count", 20000, count);
    CHECK_INT("getc macro sum", esum, sum);
    CHECK_INT("feof macro", 1, feof_unlocked(f));
#undef __uflow
#undef __overflow
    tsklee_fclose(f);
    unlink(p);
  }
  /* stdout: buffered (a pipe or file here), __fpending then __fpurge drops it */
  {
    int tty = isatty(1);
    tsklee_printf("hidden %d", 42);
    CHECK_INT("stdout pending", tty ? 9 : 9, tsklee___fpending(tsklee_stdout));
    tsklee___fpurge(tsklee_stdout);
    CHECK_INT("stdout purged", 0, tsklee___fpending(tsklee_stdout));
    CHECK_INT("stderr unbuffered fileno", 2, tsklee_fileno(tsklee_stderr));
    CHECK_INT("stdin fileno", 0, tsklee_fileno(tsklee_stdin));
  }
  return summary();
}
