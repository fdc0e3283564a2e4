/* Calendar time without time zones: the local time zone is UTC (TZ is ignored), so
 * localtime_r == gmtime_r and mktime == timegm. time(), clock_gettime() and gettimeofday()
 * read the clock and belong to the POSIX model (not defined here). */
#include "../internal.h"
#include <errno.h>
#include <time.h>

char *tzname[2] = {"UTC", "UTC"};
long timezone = 0;
int daylight = 0;
extern char *__tzname[2] __attribute__((alias("tzname")));
extern long __timezone __attribute__((alias("timezone")));
extern int __daylight __attribute__((alias("daylight")));

void tzset(void) {}

static int is_leap(long long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static const short days_before[2][13] = {
    {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365},
    {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366}};

/* Days from 1970-01-01 to y-01-01 (proleptic Gregorian, any sign). */
static long long days_from_epoch(long long y) {
  long long y1 = y - 1;
  /* floor divisions */
  long long q4 = y1 >= 0 ? y1 / 4 : -((-y1 + 3) / 4);
  long long q100 = y1 >= 0 ? y1 / 100 : -((-y1 + 99) / 100);
  long long q400 = y1 >= 0 ? y1 / 400 : -((-y1 + 399) / 400);
  long long leaps = q4 - q100 + q400;
  /* leaps before 1970: 477 */
  return (y - 1970) * 365 + (leaps - 477);
}

/* The times whose year fits an int (glibc's gmtime fails with EOVERFLOW outside):
 * from (INT_MIN + 1900)-01-01 00:00:00 to (INT_MAX + 1900)-12-31 23:59:59. */
#define T_LO (-67768040609740800LL)
#define T_HI 67768036191676799LL
/* Days are counted from an era of 400 years (146097 days) whose years begin on March 1, so
 * that the leap day is the last day of a year: era E0 = floor((INT_MIN + 1900 - 1) / 400)
 * begins at (E0 * 400)-03-01, day BASE_DAY from the epoch, at or before T_LO. */
#define E0 (-5368705LL)
#define BASE_SEC (-67768048556899200LL) /* BASE_DAY * 86400, BASE_DAY = -784352413853 */
#define ERA_SEC 12622780800ULL          /* 146097 * 86400 */
#define BASE_WDAY 3u                    /* (BASE_DAY + 4) mod 7: 1970-01-01 was a Thursday */
#define YEAR0 2147483396u               /* E0 * 400 - 1900, mod 2^32 */

/* Days before each month of a year that begins on March 1. */
static const unsigned march_month_start[12] = {0, 31, 61, 92, 122, 153, 184, 214, 245, 275, 306, 337};

/* Straight-line arithmetic, no loop over the data and one branch (the year's overflow, a
 * comparison of t with constants): a symbolic time (a symbolic file's st_mtime) must not fork
 * per year or month, and its fields must be cheap for the solver. So the time is made
 * non-negative by an offset to an era boundary, one 64-bit division by the era's length (in
 * seconds) and one 32-bit division (days) remain, and the rest is 32-bit arithmetic on values
 * of known small range, mostly comparisons with constants (a chain of 64-bit signed divisions
 * made z3 time out on "is the year below 100?"). The year is computed modulo 2^32, exact since
 * it fits an int. Comparisons are used as 0/1 values and combined with & and |, never && or
 * ||, so that they stay branch-free. */
struct tm *gmtime_r(const time_t *restrict tp, struct tm *restrict tm) {
  long long t = *tp;
  if ((t < T_LO) | (t > T_HI)) {
    errno = EOVERFLOW;
    return NULL;
  }
  unsigned long long u = (unsigned long long)(t - BASE_SEC); /* < 2^57 */
  unsigned long long era = u / ERA_SEC;                       /* < 2^24 */
  unsigned long long s = u - era * ERA_SEC;                   /* seconds in the era, < 2^34 */
  unsigned s7 = (unsigned)(s >> 7);                           /* 86400 = 128 * 675 */
  unsigned doe = s7 / 675;                                    /* [0, 146096] */
  unsigned secs = s7 % 675 * 128 + ((unsigned)s & 127);       /* [0, 86399] */
  /* Below, comparisons with constants summed as 0/1 values instead of divisions: z3 timed out
   * on "is the day of the month below 10?" through the division chain of the usual formulas
   * (yoe = (doe - doe/1460 + doe/36524 - doe/146096) / 365, month = (5 * doy + 2) / 153). */
  unsigned hour = 0;
  for (unsigned h = 1; h < 24; h++) hour += secs >= h * 3600;
  unsigned sech = secs - hour * 3600; /* [0, 3599] */
  /* Each field is masked to the bits its range needs (exact: the mask keeps every value it
   * can take), so that its bound is visible to the solver without reasoning through the
   * arithmetic: z3 took seconds to prove that a day of the month is below 100. */
  tm->tm_hour = (int)(hour & 31);
  tm->tm_min = (int)(sech / 60 & 63);
  tm->tm_sec = (int)(sech % 60 & 63);
  tm->tm_wday = (int)((doe + BASE_WDAY) % 7); /* an era is a whole number of weeks */
  /* centuries of the era: 36524 days, the last 36525 (its last year ends on a leap day) */
  unsigned c = (doe >= 36524) + (doe >= 2 * 36524) + (doe >= 3 * 36524);
  unsigned doc = doe - c * 36524; /* [0, 36524] */
  /* four-year groups of 1461 days (the century's last has 1460 but no successor) */
  unsigned q = 0;
  for (unsigned i = 1; i < 25; i++) q += doc >= i * 1461;
  unsigned doq = doc - q * 1461;                                /* [0, 1460] */
  unsigned r = (doq >= 365) + (doq >= 730) + (doq >= 1095);     /* the fourth ends on a leap day */
  unsigned yoe = 100 * c + 4 * q + r;                           /* [0, 399] */
  unsigned doy = doq - 365 * r;                                 /* [0, 365] from March 1 */
  unsigned mp = 0, mstart = 0; /* the month [0, 11] from March; its first day of the year */
  for (int i = 1; i < 12; i++) {
    unsigned after = doy >= march_month_start[i];
    mp += after;
    mstart += after * (march_month_start[i] - march_month_start[i - 1]);
  }
  unsigned mday = doy - mstart + 1;
  unsigned janfeb = mp >= 10;
  /* from March, the calendar year is the era's year yoe (eras start on a leap cycle): leap
   * when yoe % 4 == 0 and (yoe % 100 != 0 or yoe == 0) */
  unsigned leap = (r == 0) & ((q != 0) | (c == 0));
  tm->tm_year = (int)((unsigned)era * 400u + YEAR0 + yoe + janfeb);
  tm->tm_yday = (int)((doy - 306 * janfeb + (59 + leap) * (1 - janfeb)) & 511);
  tm->tm_mon = (int)((mp + 2 - 12 * janfeb) & 15);
  tm->tm_mday = (int)(((mday - 1) & 31) + 1);
  tm->tm_isdst = 0;
  tm->tm_gmtoff = 0;
  tm->tm_zone = "GMT";
  return tm;
}

struct tm *localtime_r(const time_t *restrict tp, struct tm *restrict tm) {
  struct tm *r = gmtime_r(tp, tm);
  if (r) r->tm_zone = "UTC";
  return r;
}

static struct tm static_tm;
struct tm *gmtime(const time_t *tp) { return gmtime_r(tp, &static_tm); }
struct tm *localtime(const time_t *tp) { return localtime_r(tp, &static_tm); }

/* Normalises the fields of tm (any out-of-range values) and returns seconds since the epoch. */
time_t timegm(struct tm *tm) {
  long long mon = tm->tm_mon, year = (long long)tm->tm_year + 1900;
  year += mon / 12;
  mon %= 12;
  if (mon < 0) {
    mon += 12;
    year--;
  }
  long long days = days_from_epoch(year) + days_before[is_leap(year)][mon] + tm->tm_mday - 1;
  long long t = days * 86400 + (long long)tm->tm_hour * 3600 + (long long)tm->tm_min * 60 + tm->tm_sec;
  time_t tt = (time_t)t;
  if (!gmtime_r(&tt, tm)) return (time_t)-1;
  return tt;
}

time_t mktime(struct tm *tm) {
  time_t t = timegm(tm);
  if (t != (time_t)-1) tm->tm_zone = "UTC";
  return t;
}
time_t timelocal(struct tm *tm) { return mktime(tm); }

double difftime(time_t a, time_t b) { return (double)a - (double)b; }
