/*
 * tsklee libc — FILE streams (see stdio_impl.h for the layout, which is glibc's struct
 * _IO_FILE so that the <stdio.h> inline getc/putc/feof/ferror work).
 *
 * Buffering like glibc: stdout is line buffered when isatty(1), else fully buffered
 * (decided at its first use); stderr is unbuffered; files are fully buffered (BUFSIZ).
 * I/O goes through the POSIX model's read/write/open/close/lseek/isatty.
 */
#include "stdio_impl.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>

static FILE f_stdin = { ._flags = SF_READ | SF_STATIC, ._fileno = 0 };
static FILE f_stdout = { ._flags = SF_WRITE | SF_STATIC, ._fileno = 1 };
static FILE f_stderr = { ._flags = SF_WRITE | SF_STATIC | SF_UNBUF | SF_MODESET, ._fileno = 2 };
FILE *stdin = &f_stdin;
FILE *stdout = &f_stdout;
FILE *stderr = &f_stderr;

static FILE *all_files; /* fopen'd streams, through _chain */
extern void (*__tsklee_stdio_flush_hook)(void);

static void exit_flush(void) { fflush(NULL); }

static void init_stream(FILE *f) {
  if (!__tsklee_stdio_flush_hook) __tsklee_stdio_flush_hook = exit_flush;
  if (!(f->_flags & SF_MODESET)) {
    f->_flags |= SF_MODESET;
    if (f->_fileno >= 0 && isatty(f->_fileno)) f->_flags |= SF_LINEBUF;
  }
}

static int alloc_buf(FILE *f) {
  if (f->_IO_buf_base) return 0;
  if (f->_flags & SF_UNBUF) {
    f->_IO_buf_base = f->_shortbuf;
    f->_IO_buf_end = f->_shortbuf + 1;
    return 0;
  }
  char *b = malloc(BUFSIZ);
  if (!b) {
    f->_flags |= SF_UNBUF;
    f->_IO_buf_base = f->_shortbuf;
    f->_IO_buf_end = f->_shortbuf + 1;
    return 0;
  }
  f->_IO_buf_base = b;
  f->_IO_buf_end = b + BUFSIZ;
  f->_flags |= SF_MYBUF;
  return 0;
}

static int write_all(FILE *f, const char *p, size_t n) {
  while (n) {
    long w = write(f->_fileno, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      f->_flags |= _IO_ERR_SEEN;
      return -1;
    }
    if (w == 0) { f->_flags |= _IO_ERR_SEEN; return -1; }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Writes out pending output (leaves the stream in write mode with an empty buffer). */
static int flush_write(FILE *f) {
  if (!(f->_flags & SF_WRITING)) return 0;
  size_t n = (size_t)(f->_IO_write_ptr - f->_IO_write_base);
  int r = 0;
  if (n) r = write_all(f, f->_IO_write_base, n);
  /* on error the data is dropped (glibc keeps it for a retry) */
  f->_IO_write_ptr = f->_IO_write_base;
  return r;
}

static void leave_backup(FILE *f) {
  if (f->_flags & SF_BACKUP) {
    f->_IO_read_ptr = f->_IO_save_base;
    f->_IO_read_end = f->_IO_backup_base;
    f->_flags &= ~SF_BACKUP;
  }
}

/* Bytes read from the fd but not consumed yet. */
static long unread_count(FILE *f) {
  long n = (long)(f->_IO_read_end - f->_IO_read_ptr);
  if (f->_flags & SF_BACKUP) n += (long)(f->_IO_backup_base - f->_IO_save_base);
  return n;
}

/* Drops the read buffer, moving the fd back over what was not consumed. */
static int drop_read(FILE *f) {
  if (!(f->_flags & SF_READING)) return 0;
  long n;
  if (f->_flags & SF_BACKUP) {
    n = (long)(f->_IO_backup_base - f->_IO_save_base) - (long)(f->_IO_read_end - f->_IO_read_ptr);
    f->_flags &= ~SF_BACKUP;
  } else n = (long)(f->_IO_read_end - f->_IO_read_ptr);
  if (n && !(f->_flags & SF_STRING)) lseek(f->_fileno, -n, SEEK_CUR);
  f->_IO_read_ptr = f->_IO_read_end = f->_IO_buf_base;
  f->_flags &= ~SF_READING;
  return 0;
}

static int to_write(FILE *f) {
  if (f->_flags & SF_WRITING) return 0;
  if (!(f->_flags & SF_WRITE)) { f->_flags |= _IO_ERR_SEEN; errno = EBADF; return -1; }
  init_stream(f);
  alloc_buf(f);
  drop_read(f);
  f->_IO_read_ptr = f->_IO_read_end = f->_IO_buf_base;
  f->_IO_write_base = f->_IO_write_ptr = f->_IO_buf_base;
  f->_IO_write_end = (f->_flags & (SF_UNBUF | SF_LINEBUF)) ? f->_IO_buf_base : f->_IO_buf_end;
  f->_flags |= SF_WRITING;
  return 0;
}

static int to_read(FILE *f) {
  if (f->_flags & SF_READING) return 0;
  if (!(f->_flags & SF_READ)) { f->_flags |= _IO_ERR_SEEN; errno = EBADF; return -1; }
  init_stream(f);
  alloc_buf(f);
  if (f->_flags & SF_WRITING) {
    if (flush_write(f)) return -1;
    f->_IO_write_base = f->_IO_write_ptr = f->_IO_write_end = f->_IO_buf_base;
    f->_flags &= ~SF_WRITING;
  }
  f->_IO_read_ptr = f->_IO_read_end = f->_IO_buf_base;
  f->_IO_write_base = f->_IO_write_ptr = f->_IO_write_end = f->_IO_buf_base;
  f->_flags |= SF_READING;
  return 0;
}

int __tsklee_flush(FILE *f) {
  if (f->_flags & SF_WRITING) return flush_write(f);
  return 0;
}

/* Refills the buffer; returns the next byte without consuming it, or EOF. */
int __underflow(FILE *f) {
  if (f->_IO_read_ptr < f->_IO_read_end) return (unsigned char)*f->_IO_read_ptr;
  if (f->_flags & SF_BACKUP) {
    leave_backup(f);
    if (f->_IO_read_ptr < f->_IO_read_end) return (unsigned char)*f->_IO_read_ptr;
  }
  if (f->_flags & SF_STRING) { f->_flags |= _IO_EOF_SEEN; return EOF; }
  if (to_read(f)) return EOF;
  /* reading a line-buffered or unbuffered stream flushes line-buffered stdout (glibc) */
  if ((f->_flags & (SF_LINEBUF | SF_UNBUF)) || f == stdin) {
    if ((f_stdout._flags & SF_WRITING) && (f_stdout._flags & SF_LINEBUF)) flush_write(&f_stdout);
  }
  for (;;) {
    long r = read(f->_fileno, f->_IO_buf_base, (size_t)(f->_IO_buf_end - f->_IO_buf_base));
    if (r < 0) {
      if (errno == EINTR) continue;
      f->_flags |= _IO_ERR_SEEN;
      return EOF;
    }
    if (r == 0) { f->_flags |= _IO_EOF_SEEN; return EOF; }
    f->_IO_read_ptr = f->_IO_buf_base;
    f->_IO_read_end = f->_IO_buf_base + r;
    return (unsigned char)*f->_IO_read_ptr;
  }
}

int __uflow(FILE *f) {
  int c = __underflow(f);
  if (c != EOF) f->_IO_read_ptr++;
  return c;
}

int __overflow(FILE *f, int ch) {
  if (to_write(f)) return EOF;
  if (ch == EOF) return flush_write(f) ? EOF : 0;
  if (f->_IO_write_ptr >= f->_IO_buf_end && flush_write(f)) return EOF;
  *f->_IO_write_ptr++ = (char)ch;
  if ((f->_flags & SF_UNBUF) || ((f->_flags & SF_LINEBUF) && ch == '\n') || f->_IO_write_ptr >= f->_IO_buf_end) {
    if (flush_write(f)) return EOF;
  }
  return (unsigned char)ch;
}

size_t __tsklee_fwrite(const void *p, size_t n, FILE *f) {
  const char *s = p;
  if (!n) return 0;
  if (to_write(f)) return 0;
  size_t room = (size_t)(f->_IO_buf_end - f->_IO_write_ptr);
  if (!(f->_flags & SF_UNBUF) && n <= room) {
    memcpy(f->_IO_write_ptr, s, n);
    f->_IO_write_ptr += n;
    if (f->_flags & SF_LINEBUF) {
      if (memchr(s, '\n', n) && flush_write(f)) return 0;
    } else if (f->_IO_write_ptr >= f->_IO_buf_end && flush_write(f)) return 0;
    return n;
  }
  /* large or unbuffered: flush what is pending, then write directly, keeping a line-buffered
   * tail after the last newline in the buffer */
  if (flush_write(f)) return 0;
  size_t direct = n;
  if (f->_flags & SF_LINEBUF) {
    size_t last = n;
    while (last > 0 && s[last - 1] != '\n') last--;
    if (n - last < room) direct = last;
  } else if (!(f->_flags & SF_UNBUF)) {
    direct = n - n % (size_t)(f->_IO_buf_end - f->_IO_buf_base);
  }
  if (direct && write_all(f, s, direct)) return 0;
  if (direct < n) {
    memcpy(f->_IO_write_ptr, s + direct, n - direct);
    f->_IO_write_ptr += n - direct;
  }
  return n;
}

size_t fwrite(const void *restrict p, size_t size, size_t nmemb, FILE *restrict f) {
  size_t total = size * nmemb;
  if (size && total / size != nmemb) { errno = EOVERFLOW; return 0; }
  if (!total) return 0;
  size_t w = __tsklee_fwrite(p, total, f);
  return w == total ? nmemb : w / size;
}
size_t (fwrite_unlocked)(const void *restrict p, size_t size, size_t nmemb, FILE *restrict f) {
  return fwrite(p, size, nmemb, f);
}

size_t fread(void *restrict p, size_t size, size_t nmemb, FILE *restrict f) {
  size_t total = size * nmemb, got = 0;
  char *d = p;
  if (!total) return 0;
  while (got < total) {
    if (f->_IO_read_ptr < f->_IO_read_end) {
      size_t k = (size_t)(f->_IO_read_end - f->_IO_read_ptr);
      if (k > total - got) k = total - got;
      memcpy(d + got, f->_IO_read_ptr, k);
      f->_IO_read_ptr += k;
      got += k;
      continue;
    }
    if (__underflow(f) == EOF) break;
  }
  return got / size;
}
size_t (fread_unlocked)(void *restrict p, size_t size, size_t nmemb, FILE *restrict f) {
  return fread(p, size, nmemb, f);
}

int fgetc(FILE *f) {
  if (f->_IO_read_ptr < f->_IO_read_end) return (unsigned char)*f->_IO_read_ptr++;
  return __uflow(f);
}
int (getc)(FILE *f) { return fgetc(f); }
int _IO_getc(FILE *f) { return fgetc(f); }
int (fgetc_unlocked)(FILE *f) { return fgetc(f); }
int (getc_unlocked)(FILE *f) { return fgetc(f); }
int (getchar)(void) { return fgetc(stdin); }
int (getchar_unlocked)(void) { return fgetc(stdin); }

int fputc(int c, FILE *f) {
  if (f->_IO_write_ptr < f->_IO_write_end) return (unsigned char)(*f->_IO_write_ptr++ = (char)c);
  return __overflow(f, (unsigned char)c);
}
int (putc)(int c, FILE *f) { return fputc(c, f); }
int _IO_putc(int c, FILE *f) { return fputc(c, f); }
int (fputc_unlocked)(int c, FILE *f) { return fputc(c, f); }
int (putc_unlocked)(int c, FILE *f) { return fputc(c, f); }
int (putchar)(int c) { return fputc(c, stdout); }
int (putchar_unlocked)(int c) { return fputc(c, stdout); }

int fputs(const char *restrict s, FILE *restrict f) {
  size_t n = strlen(s);
  return __tsklee_fwrite(s, n, f) == n ? 1 : EOF;
}
int (fputs_unlocked)(const char *restrict s, FILE *restrict f) { return fputs(s, f); }
int puts(const char *s) {
  size_t n = strlen(s);
  if (__tsklee_fwrite(s, n, stdout) != n || fputc('\n', stdout) == EOF) return EOF;
  return n + 1 > INT_MAX ? INT_MAX : (int)(n + 1); /* glibc returns the count written */
}

int ungetc(int c, FILE *f) {
  if (c == EOF) return EOF;
  if (!(f->_flags & SF_READING) && !(f->_flags & SF_STRING)) {
    if (to_read(f)) return EOF;
  }
  if (!(f->_flags & SF_BACKUP) && f->_IO_read_ptr > f->_IO_buf_base && f->_IO_read_ptr[-1] == (char)c) {
    f->_IO_read_ptr--;
  } else if (!(f->_flags & SF_BACKUP) && f->_IO_read_ptr > f->_IO_buf_base && !(f->_flags & SF_STRING)) {
    *--f->_IO_read_ptr = (char)c;
  } else {
    char *area = f->_unused2;
    size_t cap = sizeof f->_unused2;
    if (!(f->_flags & SF_BACKUP)) {
      f->_IO_save_base = f->_IO_read_ptr;
      f->_IO_backup_base = f->_IO_read_end;
      f->_IO_read_ptr = f->_IO_read_end = area + cap;
      f->_flags |= SF_BACKUP;
    }
    if (f->_IO_read_ptr <= area) return EOF;
    *--f->_IO_read_ptr = (char)c;
  }
  f->_flags &= ~_IO_EOF_SEEN;
  return (unsigned char)c;
}

char *fgets(char *restrict s, int n, FILE *restrict f) {
  int i = 0;
  if (n <= 0) { errno = EINVAL; return NULL; }
  if (n == 1) { s[0] = 0; return s; }
  int olderr = f->_flags & _IO_ERR_SEEN;
  f->_flags &= ~_IO_ERR_SEEN;
  while (i < n - 1) {
    if (f->_IO_read_ptr >= f->_IO_read_end && __underflow(f) == EOF) break;
    char ch = *f->_IO_read_ptr++;
    s[i++] = ch;
    if (ch == '\n') break;
  }
  /* like glibc: NULL when nothing was read or a read error happened during this call */
  int err = f->_flags & _IO_ERR_SEEN;
  f->_flags |= olderr;
  if (i == 0 || (err && errno != EAGAIN)) return NULL;
  s[i] = 0;
  return s;
}
char *fgets_unlocked(char *restrict s, int n, FILE *restrict f) { return fgets(s, n, f); }

ssize_t getdelim(char **restrict lp, size_t *restrict np, int delim, FILE *restrict f) {
  if (!lp || !np) { errno = EINVAL; f->_flags |= _IO_ERR_SEEN; return -1; }
  size_t len = 0;
  if (!*lp || *np == 0) {
    *np = 120;
    *lp = malloc(*np);
    if (!*lp) { errno = ENOMEM; return -1; }
  }
  for (;;) {
    int c = fgetc(f);
    if (c == EOF) break;
    if (len + 2 > *np) {
      size_t nn = *np * 2;
      char *nb = malloc(nn);
      if (!nb) { errno = ENOMEM; return -1; }
      memcpy(nb, *lp, len);
      free(*lp);
      *lp = nb;
      *np = nn;
    }
    (*lp)[len++] = (char)c;
    if (c == delim) break;
  }
  (*lp)[len] = 0;
  return len ? (ssize_t)len : -1;
}
ssize_t __getdelim(char **restrict lp, size_t *restrict np, int delim, FILE *restrict f) { return getdelim(lp, np, delim, f); }
ssize_t getline(char **restrict lp, size_t *restrict np, FILE *restrict f) { return getdelim(lp, np, '\n', f); }

int fflush(FILE *f) {
  if (!f) {
    int r = 0;
    if (fflush(&f_stdout)) r = EOF;
    if (fflush(&f_stderr)) r = EOF;
    for (FILE *g = all_files; g; g = g->_chain)
      if ((g->_flags & SF_WRITING) && fflush(g)) r = EOF;
    return r;
  }
  if (f->_flags & SF_WRITING) return flush_write(f) ? EOF : 0;
  if ((f->_flags & SF_READING) && !(f->_flags & SF_STRING)) {
    /* glibc: seekable input streams get their file offset synchronised */
    long n = unread_count(f);
    if (n && lseek(f->_fileno, 0, SEEK_CUR) >= 0) drop_read(f);
  }
  return 0;
}
int fflush_unlocked(FILE *f) { return fflush(f); }

static int parse_mode(const char *m, int *oflags) {
  int fl, of;
  switch (*m) {
  case 'r': fl = SF_READ; of = O_RDONLY; break;
  case 'w': fl = SF_WRITE; of = O_WRONLY | O_CREAT | O_TRUNC; break;
  case 'a': fl = SF_WRITE | SF_APPEND; of = O_WRONLY | O_CREAT | O_APPEND; break;
  default: errno = EINVAL; return -1;
  }
  for (m++; *m; m++) {
    if (*m == '+') { fl |= SF_READ | SF_WRITE; of = (of & ~(O_RDONLY | O_WRONLY)) | O_RDWR; }
    else if (*m == 'x') of |= O_EXCL;
    else if (*m == 'e') of |= O_CLOEXEC;
    else if (*m == ',') break;
  }
  *oflags = of;
  return fl;
}

static FILE *new_file(int fd, int fl) {
  FILE *f = malloc(sizeof *f);
  if (!f) { errno = ENOMEM; return NULL; }
  memset(f, 0, sizeof *f);
  f->_flags = fl | SF_MODESET;
  f->_fileno = fd;
  f->_chain = all_files;
  all_files = f;
  if (isatty(fd)) f->_flags |= SF_LINEBUF;
  if (!__tsklee_stdio_flush_hook) __tsklee_stdio_flush_hook = exit_flush;
  return f;
}

FILE *fopen(const char *restrict path, const char *restrict mode) {
  int of, fl = parse_mode(mode, &of);
  if (fl < 0) return NULL;
  int fd = open(path, of, 0666);
  if (fd < 0) return NULL;
  FILE *f = new_file(fd, fl);
  if (!f) close(fd);
  else if (fl & SF_APPEND) lseek(fd, 0, SEEK_END); /* glibc: ftell of a fresh "a" stream is the size */
  return f;
}
FILE *fopen64(const char *restrict path, const char *restrict mode) { return fopen(path, mode); }

FILE *fdopen(int fd, const char *mode) {
  int of, fl = parse_mode(mode, &of);
  if (fl < 0) return NULL;
  if (fl & SF_APPEND) lseek(fd, 0, SEEK_END);
  return new_file(fd, fl);
}

static void unlink_file(FILE *f) {
  for (FILE **pp = &all_files; *pp; pp = &(*pp)->_chain)
    if (*pp == f) { *pp = f->_chain; return; }
}

int fclose(FILE *f) {
  // a standard stream closed before (comm - - closes stdin twice): glibc keeps the static FILE
  // and its second fclose fails with EOF, errno untouched
  if ((f->_flags & SF_STATIC) && f->_fileno < 0) return EOF;
  int r = fflush(f);
  if (f->_fileno >= 0 && close(f->_fileno) < 0) r = EOF;
  if (f->_flags & SF_MYBUF) free(f->_IO_buf_base);
  if (f->_flags & SF_STATIC) {
    f->_IO_buf_base = f->_IO_buf_end = NULL;
    f->_IO_read_ptr = f->_IO_read_end = f->_IO_write_base = f->_IO_write_ptr = f->_IO_write_end = NULL;
    f->_flags &= ~(SF_MYBUF | SF_READING | SF_WRITING | SF_READ | SF_WRITE);
    f->_fileno = -1;
  } else {
    unlink_file(f);
    free(f);
  }
  return r;
}

FILE *freopen(const char *restrict path, const char *restrict mode, FILE *restrict f) {
  int of, fl = parse_mode(mode, &of);
  fflush(f);
  if (fl < 0) return NULL;
  if (!path) { errno = EINVAL; return NULL; }
  int fd = open(path, of, 0666);
  if (fd < 0) return NULL;
  int old = f->_fileno;
  if (old >= 0 && old != fd) close(old);
  if (f->_flags & SF_MYBUF) free(f->_IO_buf_base);
  int keep = f->_flags & SF_STATIC;
  FILE *chain = f->_chain;
  memset(f, 0, sizeof *f);
  f->_chain = chain;
  f->_flags = fl | keep;
  f->_fileno = fd;
  return f;
}

int fileno(FILE *f) {
  if (f->_fileno < 0) { errno = EBADF; return -1; }
  return f->_fileno;
}
int (fileno_unlocked)(FILE *f) { return fileno(f); }
int feof(FILE *f) { return (f->_flags & _IO_EOF_SEEN) != 0; }
int (feof_unlocked)(FILE *f) { return feof(f); }
int ferror(FILE *f) { return (f->_flags & _IO_ERR_SEEN) != 0; }
int (ferror_unlocked)(FILE *f) { return ferror(f); }
void clearerr(FILE *f) { f->_flags &= ~(_IO_EOF_SEEN | _IO_ERR_SEEN); }
void (clearerr_unlocked)(FILE *f) { clearerr(f); }

int setvbuf(FILE *restrict f, char *restrict buf, int mode, size_t size) {
  if (mode != _IONBF && mode != _IOLBF && mode != _IOFBF) { errno = EINVAL; return EOF; }
  fflush(f);
  drop_read(f);
  f->_flags &= ~(SF_UNBUF | SF_LINEBUF | SF_WRITING | SF_READING);
  f->_flags |= SF_MODESET;
  if (f->_flags & SF_MYBUF) free(f->_IO_buf_base);
  f->_flags &= ~SF_MYBUF;
  f->_IO_buf_base = f->_IO_buf_end = NULL;
  if (mode == _IONBF) f->_flags |= SF_UNBUF;
  else {
    if (mode == _IOLBF) f->_flags |= SF_LINEBUF;
    if (buf && size) { f->_IO_buf_base = buf; f->_IO_buf_end = buf + size; }
  }
  f->_IO_read_ptr = f->_IO_read_end = f->_IO_write_base = f->_IO_write_ptr = f->_IO_write_end = f->_IO_buf_base;
  return 0;
}
void setbuf(FILE *restrict f, char *restrict buf) { setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ); }
void setbuffer(FILE *restrict f, char *restrict buf, size_t n) { setvbuf(f, buf, buf ? _IOFBF : _IONBF, n); }
void setlinebuf(FILE *f) { setvbuf(f, NULL, _IOLBF, 0); }

off_t ftello(FILE *f) {
  if (f->_flags & SF_STRING) return (off_t)(f->_IO_read_ptr - f->_IO_buf_base);
  long pos = lseek(f->_fileno, 0, SEEK_CUR);
  if (pos < 0) return -1;
  if (f->_flags & SF_READING) {
    if (f->_flags & SF_BACKUP)
      pos -= (long)(f->_IO_backup_base - f->_IO_save_base) + (long)(f->_IO_read_end - f->_IO_read_ptr);
    else pos -= (long)(f->_IO_read_end - f->_IO_read_ptr);
  } else if (f->_flags & SF_WRITING) {
    if (f->_flags & SF_APPEND) {
      if (flush_write(f)) return -1;
      pos = lseek(f->_fileno, 0, SEEK_CUR);
    } else pos += (long)(f->_IO_write_ptr - f->_IO_write_base);
  }
  return pos;
}
off_t ftello64(FILE *f) __attribute__((alias("ftello")));
long ftell(FILE *f) {
  off_t r = ftello(f);
  return (long)r;
}

int fseeko(FILE *f, off_t off, int whence) {
  if (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END) { errno = EINVAL; return -1; }
  if (f->_flags & SF_WRITING) {
    if (flush_write(f)) return -1;
  }
  if (whence == SEEK_CUR) {
    off_t cur = ftello(f);
    if (cur < 0) return -1;
    off += cur;
    whence = SEEK_SET;
  }
  if (f->_flags & SF_READING) {
    f->_flags &= ~SF_BACKUP;
    f->_IO_read_ptr = f->_IO_read_end = f->_IO_buf_base;
    f->_flags &= ~SF_READING;
  }
  if (lseek(f->_fileno, off, whence) < 0) return -1;
  if (f->_flags & SF_WRITING) {
    f->_IO_write_base = f->_IO_write_ptr = f->_IO_write_end = f->_IO_buf_base;
    f->_flags &= ~SF_WRITING;
  }
  f->_flags &= ~_IO_EOF_SEEN;
  return 0;
}
int fseeko64(FILE *f, off_t off, int whence) __attribute__((alias("fseeko")));
int fseek(FILE *f, long off, int whence) { return fseeko(f, off, whence); }
void rewind(FILE *f) { fseeko(f, 0, SEEK_SET); clearerr(f); }
int fgetpos(FILE *restrict f, fpos_t *restrict pos) {
  off_t o = ftello(f);
  if (o < 0) return -1;
  memset(pos, 0, sizeof *pos);
  pos->__pos = o;
  return 0;
}
int fsetpos(FILE *f, const fpos_t *pos) { return fseeko(f, pos->__pos, SEEK_SET); }

/* gnulib's stdio-ext helpers */
size_t __fpending(FILE *f) { return (f->_flags & SF_WRITING) ? (size_t)(f->_IO_write_ptr - f->_IO_write_base) : 0; }
int __freading(FILE *f) { return (f->_flags & SF_READING) != 0 || ((f->_flags & SF_READ) && !(f->_flags & SF_WRITE)); }
int __fwriting(FILE *f) { return (f->_flags & SF_WRITING) != 0 || ((f->_flags & SF_WRITE) && !(f->_flags & SF_READ)); }
int __freadable(FILE *f) { return (f->_flags & SF_READ) != 0; }
int __fwritable(FILE *f) { return (f->_flags & SF_WRITE) != 0; }
int __flbf(FILE *f) { return (f->_flags & SF_LINEBUF) != 0; }
size_t __fbufsize(FILE *f) { return (size_t)(f->_IO_buf_end - f->_IO_buf_base); }
void __fpurge(FILE *f) {
  if (f->_flags & SF_WRITING) f->_IO_write_ptr = f->_IO_write_base;
  if (f->_flags & SF_READING) { f->_flags &= ~SF_BACKUP; f->_IO_read_ptr = f->_IO_read_end; }
}
void _flushlbf(void) { fflush(NULL); }
int __fsetlocking(FILE *f, int type) { return 1; /* FSETLOCKING_INTERNAL */ }
void flockfile(FILE *f) {}
void funlockfile(FILE *f) {}
int ftrylockfile(FILE *f) { return 0; }

/* A read-only stream over a string (sscanf). */
void __tsklee_string_file(FILE *f, const char *s, size_t n) {
  memset(f, 0, sizeof *f);
  f->_flags = SF_READ | SF_READING | SF_STRING | SF_MODESET;
  f->_fileno = -1;
  f->_IO_buf_base = f->_IO_read_ptr = (char *)s;
  f->_IO_buf_end = f->_IO_read_end = (char *)s + n;
}
