/* <locale.h> and <langinfo.h>: only the "C" (alias "POSIX") locale exists. setlocale accepts
 * NULL (query), "", "C" and "POSIX" (setlocale(LC_ALL, "") gives "C": the model ignores
 * LANG/LC_*), and fails (NULL) for anything else, e.g. "C.UTF-8". newlocale returns a
 * static object whose ctype fields point at the tables of ctype.c, so the *_l macros of
 * <ctype.h> work. */
#include "../internal.h"
#include <ctype.h>
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <string.h>

static char c_name[] = "C";

static int known(const char *name) {
  return name[0] == 0 || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0;
}

char *setlocale(int category, const char *locale) {
  if (category < 0 || category > LC_IDENTIFICATION) return NULL;
  if (locale == NULL || known(locale)) return c_name;
  return NULL;
}

static struct lconv c_lconv = {
    .decimal_point = ".",
    .thousands_sep = "",
    .grouping = "",
    .int_curr_symbol = "",
    .currency_symbol = "",
    .mon_decimal_point = "",
    .mon_thousands_sep = "",
    .mon_grouping = "",
    .positive_sign = "",
    .negative_sign = "",
    .int_frac_digits = CHAR_MAX,
    .frac_digits = CHAR_MAX,
    .p_cs_precedes = CHAR_MAX,
    .p_sep_by_space = CHAR_MAX,
    .n_cs_precedes = CHAR_MAX,
    .n_sep_by_space = CHAR_MAX,
    .p_sign_posn = CHAR_MAX,
    .n_sign_posn = CHAR_MAX,
    .int_p_cs_precedes = CHAR_MAX,
    .int_p_sep_by_space = CHAR_MAX,
    .int_n_cs_precedes = CHAR_MAX,
    .int_n_sep_by_space = CHAR_MAX,
    .int_p_sign_posn = CHAR_MAX,
    .int_n_sign_posn = CHAR_MAX,
};

struct lconv *localeconv(void) { return &c_lconv; }

static const char *const day_names[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                        "Thursday", "Friday", "Saturday"};
static const char *const day_abbr[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
static const char *const mon_names[] = {"January", "February", "March",     "April",
                                        "May",     "June",     "July",      "August",
                                        "September", "October", "November", "December"};
static const char *const mon_abbr[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

char *nl_langinfo(nl_item item) {
  if (item >= DAY_1 && item <= DAY_7) return (char *)day_names[item - DAY_1];
  if (item >= ABDAY_1 && item <= ABDAY_7) return (char *)day_abbr[item - ABDAY_1];
  if (item >= MON_1 && item <= MON_12) return (char *)mon_names[item - MON_1];
  if (item >= ABMON_1 && item <= ABMON_12) return (char *)mon_abbr[item - ABMON_1];
  if (item >= ALTMON_1 && item <= ALTMON_12) return (char *)mon_names[item - ALTMON_1];
  if (item >= _NL_ABALTMON_1 && item <= _NL_ABALTMON_12) return (char *)mon_abbr[item - _NL_ABALTMON_1];
  switch (item) {
  case CODESET: return "ANSI_X3.4-1968";
  case RADIXCHAR: return ".";
  case THOUSEP: return "";
  case D_T_FMT: return "%a %b %e %H:%M:%S %Y";
  case D_FMT: return "%m/%d/%y";
  case T_FMT: return "%H:%M:%S";
  case T_FMT_AMPM: return "%I:%M:%S %p";
  case AM_STR: return "AM";
  case PM_STR: return "PM";
  case ERA: case ERA_D_FMT: case ERA_D_T_FMT: case ERA_T_FMT: case ALT_DIGITS: return "";
  case YESEXPR: return "^[yY]";
  case NOEXPR: return "^[nN]";
  case CRNCYSTR: return "-";
  default: return "";
  }
}

char *nl_langinfo_l(nl_item item, locale_t l) {
  (void)l;
  return nl_langinfo(item);
}

/* The C locale object of newlocale()/uselocale(): only the ctype pointers are meaningful. */
static struct __locale_struct c_locale;
static int c_locale_ready;

static locale_t the_c_locale(void) {
  if (!c_locale_ready) {
    c_locale.__ctype_b = *__ctype_b_loc();
    c_locale.__ctype_tolower = *__ctype_tolower_loc();
    c_locale.__ctype_toupper = *__ctype_toupper_loc();
    for (int i = 0; i < 13; i++) c_locale.__names[i] = c_name;
    c_locale_ready = 1;
  }
  return &c_locale;
}

locale_t newlocale(int mask, const char *locale, locale_t base) {
  (void)mask;
  (void)base;
  if (locale == NULL || !known(locale)) {
    errno = ENOENT; /* as glibc */
    return (locale_t)0;
  }
  return the_c_locale();
}

locale_t duplocale(locale_t l) { return l == LC_GLOBAL_LOCALE ? the_c_locale() : l; }
void freelocale(locale_t l) { (void)l; }

static locale_t current = LC_GLOBAL_LOCALE;
locale_t uselocale(locale_t l) {
  locale_t old = current;
  if (l) current = l;
  return old;
}

/* MB_CUR_MAX: one byte per character in the C locale. */
size_t __ctype_get_mb_cur_max(void) { return 1; }
