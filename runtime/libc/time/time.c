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

/* Straight-line arithmetic, no loop and one branch (the year's overflow): a symbolic time
 * (a symbolic file's st_mtime) must not fork once per year a loop's estimate is off, nor
 * per month. Days are counted in eras of 400 years (146097 days) whose years begin on
 * March 1, so that the leap day is the last day of a year. Comparisons are used as 0/1
 * values and combined with & and |, never && or ||, so that they stay branch-free. */
struct tm *gmtime_r(const time_t *restrict tp, struct tm *restrict tm) {
  long long t = *tp;
  long long days = t / 86400, rem = t % 86400;
  long long neg = rem < 0; /* floor division */
  rem += neg * 86400;
  days -= neg;
  tm->tm_hour = (int)(rem / 3600);
  tm->tm_min = (int)(rem % 3600 / 60);
  tm->tm_sec = (int)(rem % 60);
  long long wd = (4 + days) % 7; /* 1970-01-01 was a Thursday */
  tm->tm_wday = (int)(wd + (wd < 0) * 7);
  long long z = days + 719468; /* days since 0000-03-01 */
  long long era = (z - (z < 0) * 146096) / 146097;
  long long doe = z - era * 146097;                                       /* [0, 146096] */
  long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  /* [0, 399] */
  long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                /* [0, 365] from March 1 */
  long long mp = (5 * doy + 2) / 153;                                     /* [0, 11] from March */
  long long mday = doy - (153 * mp + 2) / 5 + 1;
  long long janfeb = mp >= 10;
  long long mon = mp + 2 - 12 * janfeb; /* [0, 11] from January */
  long long y = yoe + era * 400 + janfeb;
  if (y - 1900 > INT_MAX || y - 1900 < INT_MIN) {
    errno = EOVERFLOW;
    return NULL;
  }
  long long leap = ((y % 4 == 0) & (y % 100 != 0)) | (y % 400 == 0);
  tm->tm_year = (int)(y - 1900);
  tm->tm_yday = (int)(doy - 306 * janfeb + (59 + leap) * (1 - janfeb));
  tm->tm_mon = (int)mon;
  tm->tm_mday = (int)mday;
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
