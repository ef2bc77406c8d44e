// layers: core
/* Unit tests of core/utf8.c: decoding as glibc's UTF-8 locale reads text
 * (bash counts an invalid byte as one character), character indexing,
 * widths, case and the reading of locale names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/utf8.h"

static void test_next(void **st) {
  (void)st;
  int32_t cp;
  assert_int_equal(u8_next("a", 1, &cp), 1);
  assert_int_equal(cp, 'a');
  assert_int_equal(u8_next("\xc3\xa9", 2, &cp), 2);
  assert_int_equal(cp, 0xE9);
  assert_int_equal(u8_next("\xf0\x9f\x98\x80", 4, &cp), 4);
  assert_int_equal(cp, 0x1F600);
  /* invalid: stray continuation, truncated, overlong, surrogate, too big */
  const char *bad[] = {"\xa9",     "\xc3",         "\xe6\x97",
                       "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                       "\xff"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    assert_int_equal(u8_next(bad[i], strlen(bad[i]), &cp), 1);
    assert_int_equal(cp, -1);
  }
  assert_int_equal(u8_next("", 0, &cp), 0);
  /* a sequence cut by the length given is invalid */
  assert_int_equal(u8_next("\xc3\xa9", 1, &cp), 1);
}

static void test_count_offset(void **st) {
  (void)st;
  const char *s = "h\xc3\xa9llo \xe6\x97\xa5";
  size_t n = strlen(s);
  assert_int_equal(u8_count(s, n), 7);
  assert_int_equal(u8_offset(s, n, 0), 0);
  assert_int_equal(u8_offset(s, n, 2), 3);
  assert_int_equal(u8_offset(s, n, 6), 7);
  assert_int_equal(u8_offset(s, n, 7), n);
  assert_int_equal(u8_offset(s, n, 100), n);
  /* invalid bytes count one each, as bash's ${#x} does */
  assert_int_equal(u8_count("\xff\xfe"
                            "ab",
                            4),
                   4);
  assert_int_equal(u8_count("a\xc3", 2), 2);
  assert_int_equal(u8_count("\xe6\x97", 2), 2);
  assert_int_equal(u8_offset("\xff\xc3\xa9!", 4, 2), 3);
  assert_true(u8_valid(s, n));
  assert_false(u8_valid("a\xff", 2));
  assert_true(u8_valid("", 0));
}

static void test_width_case(void **st) {
  (void)st;
  assert_int_equal(u8_width('a'), 1);
  assert_int_equal(u8_width('\t'), -1);
  assert_int_equal(u8_width(0xE9), 1);
  assert_int_equal(u8_width(0x65E5), 2);
  assert_int_equal(u8_width(0x301), 0);
  assert_int_equal(u8_width(-1), -1);
  /* as glibc's wcwidth: a spacing mark, a Hangul medial vowel, the Arabic
   * number sign */
  assert_int_equal(u8_width(0x93F), 1);
  assert_int_equal(u8_width(0x1161), 0);
  assert_int_equal(u8_width(0x600), 1);
  assert_int_equal(u8_width(0x200B), 0);
  assert_int_equal(u8_toupper(0xE9), 0xC9);
  assert_int_equal(u8_tolower(0xC9), 0xE9);
  assert_int_equal(u8_toupper(0xDF), 0xDF); /* as glibc: no capital sharp s */
  assert_int_equal(u8_toupper(0x1C6), 0x1C4);
  assert_int_equal(u8_toupper(-1), -1);
  char b[4];
  assert_int_equal(u8_encode(0x65E5, b), 3);
  assert_memory_equal(b, "\xe6\x97\xa5", 3);
  assert_int_equal(u8_encode(0x110000, b), 0);
}

static void test_locale_name(void **st) {
  (void)st;
  assert_int_equal(u8_locale_name("C.UTF-8"), 1);
  assert_int_equal(u8_locale_name("C.utf8"), 1);
  assert_int_equal(u8_locale_name("en_US.UTF-8"), 1);
  assert_int_equal(u8_locale_name("de_DE.utf8@euro"), 1);
  assert_int_equal(u8_locale_name("C"), 0);
  assert_int_equal(u8_locale_name("POSIX"), 0);
  assert_int_equal(u8_locale_name("en_US"), 0);
  assert_int_equal(u8_locale_name("fr_FR.ISO-8859-1"), 0);
  assert_int_equal(u8_locale_name("C.UTF-16"), 0);
  assert_int_equal(u8_locale_name(NULL), -1);
  assert_int_equal(u8_locale_name(""), -1);
  assert_int_equal(u8_locale_name("invalid"), -1);
  assert_int_equal(u8_locale_name("UTF-8"), -1);
  assert_int_equal(u8_locale_name("en_us.UTF-8"), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_next),
      cmocka_unit_test(test_count_offset),
      cmocka_unit_test(test_width_case),
      cmocka_unit_test(test_locale_name),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
