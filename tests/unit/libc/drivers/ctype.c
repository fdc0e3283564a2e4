/* ctype.h (functions, macros' tables for all 384 indices) and the C-locale wide-character
 * and multibyte functions: tsklee vs glibc. */
#include "check.h"
#include <ctype.h>
#include <errno.h>
#include <wchar.h>
#include <wctype.h>
#include <locale.h>

#define D(ret, name, args) extern ret tsklee_##name args;
D(const unsigned short **, __ctype_b_loc, (void))
D(const int32_t **, __ctype_tolower_loc, (void))
D(const int32_t **, __ctype_toupper_loc, (void))
D(int, isalnum, (int)) D(int, isalpha, (int)) D(int, isblank, (int)) D(int, iscntrl, (int))
D(int, isdigit, (int)) D(int, isgraph, (int)) D(int, islower, (int)) D(int, isprint, (int))
D(int, ispunct, (int)) D(int, isspace, (int)) D(int, isupper, (int)) D(int, isxdigit, (int))
D(int, isascii, (int)) D(int, toascii, (int)) D(int, tolower, (int)) D(int, toupper, (int))
D(int, iswalnum, (wint_t)) D(int, iswalpha, (wint_t)) D(int, iswblank, (wint_t)) D(int, iswcntrl, (wint_t))
D(int, iswdigit, (wint_t)) D(int, iswgraph, (wint_t)) D(int, iswlower, (wint_t)) D(int, iswprint, (wint_t))
D(int, iswpunct, (wint_t)) D(int, iswspace, (wint_t)) D(int, iswupper, (wint_t)) D(int, iswxdigit, (wint_t))
D(wint_t, towlower, (wint_t)) D(wint_t, towupper, (wint_t))
D(wctype_t, wctype, (const char *)) D(int, iswctype, (wint_t, wctype_t))
D(int, wcwidth, (wchar_t)) D(int, wcswidth, (const wchar_t *, size_t))
D(size_t, mbrtowc, (wchar_t *, const char *, size_t, mbstate_t *))
D(size_t, mbrlen, (const char *, size_t, mbstate_t *))
D(int, mbtowc, (wchar_t *, const char *, size_t))
D(int, mblen, (const char *, size_t))
D(size_t, wcrtomb, (char *, wchar_t, mbstate_t *))
D(int, wctomb, (char *, wchar_t))
D(wint_t, btowc, (int)) D(int, wctob, (wint_t)) D(int, mbsinit, (const mbstate_t *))
D(size_t, mbstowcs, (wchar_t *, const char *, size_t))
D(size_t, wcstombs, (char *, const wchar_t *, size_t))
D(size_t, __ctype_get_mb_cur_max, (void))
extern int *tsklee___errno_location(void);
#define terrno (*tsklee___errno_location())

int wcwidth(wchar_t);
int wcswidth(const wchar_t *, size_t);

#define NAME(fmt, ...) (snprintf(name, sizeof name, fmt, __VA_ARGS__), name)

int main(void) {
  char name[120];
  verbose_ok = 0;
  setlocale(LC_ALL, "C");
  const unsigned short *gb = *__ctype_b_loc(), *ob = *tsklee___ctype_b_loc();
  const int32_t *gl = *__ctype_tolower_loc(), *ol = *tsklee___ctype_tolower_loc();
  const int32_t *gu = *__ctype_toupper_loc(), *ou = *tsklee___ctype_toupper_loc();
  for (int c = -128; c < 256; c++) {
    CHECK_INT(NAME("b[%d]", c), gb[c], ob[c]);
    CHECK_INT(NAME("tolower_table[%d]", c), gl[c], ol[c]);
    CHECK_INT(NAME("toupper_table[%d]", c), gu[c], ou[c]);
#define F(fn) CHECK_INT(NAME(#fn "(%d)", c), (fn)(c) != 0, tsklee_##fn(c) != 0);
    F(isalnum) F(isalpha) F(isblank) F(iscntrl) F(isdigit) F(isgraph) F(islower) F(isprint)
    F(ispunct) F(isspace) F(isupper) F(isxdigit) F(isascii)
#undef F
    CHECK_INT(NAME("toascii(%d)", c), (toascii)(c), tsklee_toascii(c));
    CHECK_INT(NAME("tolower(%d)", c), (tolower)(c), tsklee_tolower(c));
    CHECK_INT(NAME("toupper(%d)", c), (toupper)(c), tsklee_toupper(c));
  }
  for (int c = -1000; c < -128; c += 97) {
    CHECK_INT(NAME("tolower(%d)", c), (tolower)(c), tsklee_tolower(c));
    CHECK_INT(NAME("toupper(%d)", c), (toupper)(c), tsklee_toupper(c));
  }
  static const char *classes[] = {"alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit", "bogus", ""};
  wint_t wcs[] = {0, 1, 9, 10, 32, 48, 65, 97, 126, 127, 128, 0xa0, 0xe9, 0xff, 0x100, 0x3b1, 0x4e00, 0x10ffff, 0x110000, WEOF};
  for (unsigned i = 0; i < sizeof wcs / sizeof wcs[0]; i++) {
    wint_t w = wcs[i];
    for (unsigned c = 0; c < 128 + 2; c++) {
      wint_t x = c < 128 ? c : w;
      if (c < 128 && i) continue;
#define F(fn) CHECK_INT(NAME(#fn "(%u)", x), fn(x) != 0, tsklee_##fn(x) != 0);
      F(iswalnum) F(iswalpha) F(iswblank) F(iswcntrl) F(iswdigit) F(iswgraph) F(iswlower) F(iswprint)
      F(iswpunct) F(iswspace) F(iswupper) F(iswxdigit)
#undef F
      CHECK_INT(NAME("towlower(%u)", x), towlower(x), tsklee_towlower(x));
      CHECK_INT(NAME("towupper(%u)", x), towupper(x), tsklee_towupper(x));
      CHECK_INT(NAME("wcwidth(%u)", x), wcwidth(x), tsklee_wcwidth(x));
      CHECK_INT(NAME("wctob(%u)", x), wctob(x), tsklee_wctob(x));
      for (unsigned k = 0; k < sizeof classes / sizeof classes[0]; k++)
        CHECK_INT(NAME("iswctype(%u,%s)", x, classes[k]), iswctype(x, wctype(classes[k])) != 0, tsklee_iswctype(x, tsklee_wctype(classes[k])) != 0);
    }
  }
  for (unsigned k = 0; k < sizeof classes / sizeof classes[0]; k++)
    CHECK_INT(NAME("wctype(%s)==0", classes[k]), wctype(classes[k]) == 0, tsklee_wctype(classes[k]) == 0);
  for (int c = -2; c < 260; c++) CHECK_INT(NAME("btowc(%d)", c), btowc(c), tsklee_btowc(c));
  CHECK_INT("MB_CUR_MAX", MB_CUR_MAX, tsklee___ctype_get_mb_cur_max());
  for (int c = 0; c < 256; c++) {
    char s[2] = {(char)c, 'z'};
    for (size_t n = 0; n < 3; n++) {
      mbstate_t sg, so;
      memset(&sg, 0, sizeof sg); memset(&so, 0, sizeof so);
      wchar_t wg = 77, wo = 77;
      errno = 0; terrno = 0;
      size_t rg = mbrtowc(&wg, s, n, &sg), ro = tsklee_mbrtowc(&wo, s, n, &so);
      CHECK_INT(NAME("mbrtowc(%d,%zu)", c, n), rg, ro);
      CHECK_INT(NAME("mbrtowc-wc(%d,%zu)", c, n), wg, wo);
      CHECK_INT(NAME("mbrtowc-errno(%d,%zu)", c, n), errno, terrno);
      CHECK_INT(NAME("mbrlen(%d,%zu)", c, n), mbrlen(s, n, &sg), tsklee_mbrlen(s, n, &so));
      CHECK_INT(NAME("mbsinit(%d,%zu)", c, n), mbsinit(&sg) != 0, tsklee_mbsinit(&so) != 0);
      wg = wo = 77;
      CHECK_INT(NAME("mbtowc(%d,%zu)", c, n), mbtowc(&wg, s, n), tsklee_mbtowc(&wo, s, n));
      CHECK_INT(NAME("mbtowc-wc(%d,%zu)", c, n), wg, wo);
      CHECK_INT(NAME("mblen(%d,%zu)", c, n), mblen(s, n), tsklee_mblen(s, n));
    }
  }
  CHECK_INT("mbtowc(NULL)", mbtowc(NULL, NULL, 0), tsklee_mbtowc(NULL, NULL, 0));
  CHECK_INT("mbrtowc(NULL)", mbrtowc(NULL, NULL, 0, NULL), tsklee_mbrtowc(NULL, NULL, 0, NULL));
  for (unsigned i = 0; i < sizeof wcs / sizeof wcs[0]; i++) {
    char bg[8] = {0}, bo[8] = {0};
    errno = 0; terrno = 0;
    CHECK_INT(NAME("wcrtomb(%u)", wcs[i]), wcrtomb(bg, wcs[i], NULL), tsklee_wcrtomb(bo, wcs[i], NULL));
    CHECK_INT(NAME("wcrtomb-errno(%u)", wcs[i]), errno, terrno);
    CHECK_MEM(NAME("wcrtomb-bytes(%u)", wcs[i]), bg, bo, 8);
    CHECK_INT(NAME("wctomb(%u)", wcs[i]), wctomb(bg, wcs[i]), tsklee_wctomb(bo, wcs[i]));
    CHECK_INT(NAME("wcrtomb(NULL,%u)", wcs[i]), wcrtomb(NULL, wcs[i], NULL), tsklee_wcrtomb(NULL, wcs[i], NULL));
  }
  static const char *mbs[] = {"", "abc", "hello world", "caf\xc3\xa9", "\x7f\x01"};
  for (unsigned i = 0; i < sizeof mbs / sizeof mbs[0]; i++) {
    for (size_t n = 0; n < 14; n += 3) {
      wchar_t wg[16], wo[16];
      for (int k = 0; k < 16; k++) wg[k] = wo[k] = 7;
      CHECK_INT(NAME("mbstowcs(%u,%zu)", i, n), mbstowcs(wg, mbs[i], n), tsklee_mbstowcs(wo, mbs[i], n));
      CHECK_MEM(NAME("mbstowcs-buf(%u,%zu)", i, n), wg, wo, sizeof wg);
      char cg[16], co[16];
      memset(cg, 7, 16); memset(co, 7, 16);
      if (mbstowcs(wg, mbs[i], 16) != (size_t)-1) {
        CHECK_INT(NAME("wcstombs(%u,%zu)", i, n), wcstombs(cg, wg, n), tsklee_wcstombs(co, wg, n));
        CHECK_MEM(NAME("wcstombs-buf(%u,%zu)", i, n), cg, co, 16);
        CHECK_INT(NAME("wcswidth(%u,%zu)", i, n), wcswidth(wg, n), tsklee_wcswidth(wg, n));
      }
    }
    CHECK_INT(NAME("mbstowcs(NULL,%u)", i), mbstowcs(NULL, mbs[i], 0), tsklee_mbstowcs(NULL, mbs[i], 0));
  }
  wchar_t bad[] = {'a', 0xe9, 0};
  CHECK_INT("wcswidth(bad)", wcswidth(bad, 5), tsklee_wcswidth(bad, 5));
  CHECK_INT("wcstombs(bad)", wcstombs(NULL, bad, 0), tsklee_wcstombs(NULL, bad, 0));
  return summary();
}
