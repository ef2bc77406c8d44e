// layers: core vfs builtins
/* diff against outputs recorded from GNU diffutils 3.8 on the same inputs. */
#include <stdio.h>

#include "bi_harness.h"

static void c0(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  bh_writen(h, "b", "a\n"
    "B\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "I\n"
    "j\n"
    "k\n", 22);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 42);
  assert_memory_equal(h->out.data, "2c2\n"
    "< b\n"
    "---\n"
    "> B\n"
    "9c9\n"
    "< i\n"
    "---\n"
    "> I\n"
    "10a11\n"
    "> k\n", 42);
  assert_string_equal(bh_err(h), "");
}
static void c1(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  bh_writen(h, "b", "a\n"
    "B\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "I\n"
    "j\n"
    "k\n", 22);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 69);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -1,10 +1,11 @@\n"
    " a\n"
    "-b\n"
    "+B\n"
    " c\n"
    " d\n"
    " e\n"
    " f\n"
    " g\n"
    " h\n"
    "-i\n"
    "+I\n"
    " j\n"
    "+k\n", 69);
  assert_string_equal(bh_err(h), "");
}
static void c2(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  bh_writen(h, "b", "a\n"
    "B\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "I\n"
    "j\n"
    "k\n", 22);
  int st = bh_runb(h, "", 0, "diff", "-c", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 140);
  assert_memory_equal(h->out.data, "*** A\n"
    "--- B\n"
    "***************\n"
    "*** 1,10 ****\n"
    "  a\n"
    "! b\n"
    "  c\n"
    "  d\n"
    "  e\n"
    "  f\n"
    "  g\n"
    "  h\n"
    "! i\n"
    "  j\n"
    "--- 1,11 ----\n"
    "  a\n"
    "! B\n"
    "  c\n"
    "  d\n"
    "  e\n"
    "  f\n"
    "  g\n"
    "  h\n"
    "! I\n"
    "  j\n"
    "+ k\n", 140);
  assert_string_equal(bh_err(h), "");
}
static void c3(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  bh_writen(h, "b", "a\n"
    "B\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "I\n"
    "j\n"
    "k\n", 22);
  int st = bh_runb(h, "", 0, "diff", "-U1", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 71);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -1,3 +1,3 @@\n"
    " a\n"
    "-b\n"
    "+B\n"
    " c\n"
    "@@ -8,3 +8,4 @@\n"
    " h\n"
    "-i\n"
    "+I\n"
    " j\n"
    "+k\n", 71);
  assert_string_equal(bh_err(h), "");
}
static void c4(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  bh_writen(h, "b", "a\n"
    "B\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "I\n"
    "j\n"
    "k\n", 22);
  int st = bh_runb(h, "", 0, "diff", "-C", "0", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 148);
  assert_memory_equal(h->out.data, "*** A\n"
    "--- B\n"
    "***************\n"
    "*** 2 ****\n"
    "! b\n"
    "--- 2 ----\n"
    "! B\n"
    "***************\n"
    "*** 9 ****\n"
    "! i\n"
    "--- 9 ----\n"
    "! I\n"
    "***************\n"
    "*** 10 ****\n"
    "--- 11 ----\n"
    "+ k\n", 148);
  assert_string_equal(bh_err(h), "");
}
static void c5(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  bh_writen(h, "b", "a\n"
    "B\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "I\n"
    "j\n"
    "k\n", 22);
  int st = bh_runb(h, "", 0, "diff", "-q", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 21);
  assert_memory_equal(h->out.data, "Files a and b differ\n", 21);
  assert_string_equal(bh_err(h), "");
}
static void c6(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  bh_writen(h, "b", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  int st = bh_runb(h, "", 0, "diff", "-s", "a", "b", NULL);
  assert_int_equal(st, 0);
  assert_int_equal(h->out.len, 28);
  assert_memory_equal(h->out.data, "Files a and b are identical\n", 28);
  assert_string_equal(bh_err(h), "");
}
static void c7(bh *h) {
  bh_writen(h, "a", "x\n"
    "y", 3);
  bh_writen(h, "b", "x\n"
    "z", 3);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 72);
  assert_memory_equal(h->out.data, "2c2\n"
    "< y\n"
    "\\ No newline at end of file\n"
    "---\n"
    "> z\n"
    "\\ No newline at end of file\n", 72);
  assert_string_equal(bh_err(h), "");
}
static void c8(bh *h) {
  bh_writen(h, "a", "x\n"
    "y", 3);
  bh_writen(h, "b", "x\n"
    "y\n", 4);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 65);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -1,2 +1,2 @@\n"
    " x\n"
    "-y\n"
    "\\ No newline at end of file\n"
    "+y\n", 65);
  assert_string_equal(bh_err(h), "");
}
static void c9(bh *h) {
  bh_writen(h, "a", "a b\n"
    "  c\td\n"
    "E f\n"
    "\n"
    "x\n", 17);
  bh_writen(h, "b", "a  b \n"
    " c d\n"
    "e F\n"
    "\n"
    "\n"
    "y\n", 19);
  int st = bh_runb(h, "", 0, "diff", "-b", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 41);
  assert_memory_equal(h->out.data, "3c3\n"
    "< E f\n"
    "---\n"
    "> e F\n"
    "5c5,6\n"
    "< x\n"
    "---\n"
    "> \n"
    "> y\n", 41);
  assert_string_equal(bh_err(h), "");
}
static void c10(bh *h) {
  bh_writen(h, "a", "a b\n"
    "  c\td\n"
    "E f\n"
    "\n"
    "x\n", 17);
  bh_writen(h, "b", "a  b \n"
    " c d\n"
    "e F\n"
    "\n"
    "\n"
    "y\n", 19);
  int st = bh_runb(h, "", 0, "diff", "-w", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 41);
  assert_memory_equal(h->out.data, "3c3\n"
    "< E f\n"
    "---\n"
    "> e F\n"
    "5c5,6\n"
    "< x\n"
    "---\n"
    "> \n"
    "> y\n", 41);
  assert_string_equal(bh_err(h), "");
}
static void c11(bh *h) {
  bh_writen(h, "a", "a b\n"
    "  c\td\n"
    "E f\n"
    "\n"
    "x\n", 17);
  bh_writen(h, "b", "a  b \n"
    " c d\n"
    "e F\n"
    "\n"
    "\n"
    "y\n", 19);
  int st = bh_runb(h, "", 0, "diff", "-i", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 62);
  assert_memory_equal(h->out.data, "1,2c1,2\n"
    "< a b\n"
    "<   c\td\n"
    "---\n"
    "> a  b \n"
    ">  c d\n"
    "5c5,6\n"
    "< x\n"
    "---\n"
    "> \n"
    "> y\n", 62);
  assert_string_equal(bh_err(h), "");
}
static void c12(bh *h) {
  bh_writen(h, "a", "a b\n"
    "  c\td\n"
    "E f\n"
    "\n"
    "x\n", 17);
  bh_writen(h, "b", "a  b \n"
    " c d\n"
    "e F\n"
    "\n"
    "\n"
    "y\n", 19);
  int st = bh_runb(h, "", 0, "diff", "-iw", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 21);
  assert_memory_equal(h->out.data, "5c5,6\n"
    "< x\n"
    "---\n"
    "> \n"
    "> y\n", 21);
  assert_string_equal(bh_err(h), "");
}
static void c13(bh *h) {
  bh_writen(h, "a", "a b\n"
    "  c\td\n"
    "E f\n"
    "\n"
    "x\n", 17);
  bh_writen(h, "b", "a  b \n"
    " c d\n"
    "e F\n"
    "\n"
    "\n"
    "y\n", 19);
  int st = bh_runb(h, "", 0, "diff", "-B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 74);
  assert_memory_equal(h->out.data, "1,3c1,3\n"
    "< a b\n"
    "<   c\td\n"
    "< E f\n"
    "---\n"
    "> a  b \n"
    ">  c d\n"
    "> e F\n"
    "5c5,6\n"
    "< x\n"
    "---\n"
    "> \n"
    "> y\n", 74);
  assert_string_equal(bh_err(h), "");
}
static void c14(bh *h) {
  bh_writen(h, "a", "a b\n"
    "  c\td\n"
    "E f\n"
    "\n"
    "x\n", 17);
  bh_writen(h, "b", "a  b \n"
    " c d\n"
    "e F\n"
    "\n"
    "\n"
    "y\n", 19);
  int st = bh_runb(h, "", 0, "diff", "-E", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 74);
  assert_memory_equal(h->out.data, "1,3c1,3\n"
    "< a b\n"
    "<   c\td\n"
    "< E f\n"
    "---\n"
    "> a  b \n"
    ">  c d\n"
    "> e F\n"
    "5c5,6\n"
    "< x\n"
    "---\n"
    "> \n"
    "> y\n", 74);
  assert_string_equal(bh_err(h), "");
}
static void c15(bh *h) {
  bh_writen(h, "a", "a b\n"
    "  c\td\n"
    "E f\n"
    "\n"
    "x\n", 17);
  bh_writen(h, "b", "a  b \n"
    " c d\n"
    "e F\n"
    "\n"
    "\n"
    "y\n", 19);
  int st = bh_runb(h, "", 0, "diff", "-Z", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 74);
  assert_memory_equal(h->out.data, "1,3c1,3\n"
    "< a b\n"
    "<   c\td\n"
    "< E f\n"
    "---\n"
    "> a  b \n"
    ">  c d\n"
    "> e F\n"
    "5c5,6\n"
    "< x\n"
    "---\n"
    "> \n"
    "> y\n", 74);
  assert_string_equal(bh_err(h), "");
}
static void c16(bh *h) {
  bh_writen(h, "a", "a b\n"
    "  c\td\n"
    "E f\n"
    "\n"
    "x\n", 17);
  bh_writen(h, "b", "a  b \n"
    " c d\n"
    "e F\n"
    "\n"
    "\n"
    "y\n", 19);
  int st = bh_runb(h, "", 0, "diff", "-bB", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 41);
  assert_memory_equal(h->out.data, "3c3\n"
    "< E f\n"
    "---\n"
    "> e F\n"
    "5c5,6\n"
    "< x\n"
    "---\n"
    "> \n"
    "> y\n", 41);
  assert_string_equal(bh_err(h), "");
}
static void c17(bh *h) {
  bh_writen(h, "a", "a b\n"
    "  c\td\n"
    "E f\n"
    "\n"
    "x\n", 17);
  bh_writen(h, "b", "a  b \n"
    " c d\n"
    "e F\n"
    "\n"
    "\n"
    "y\n", 19);
  int st = bh_runb(h, "", 0, "diff", "-y", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 104);
  assert_memory_equal(h->out.data, "a b\t\t\t\t\t\t\t      |\ta  b \n"
    "  c\td\t\t\t\t\t\t      |\t c d\n"
    "E f\t\t\t\t\t\t\t      |\te F\n"
    "\n"
    "x\t\t\t\t\t\t\t      |\n"
    "\t\t\t\t\t\t\t      >\ty\n", 104);
  assert_string_equal(bh_err(h), "");
}
static void c18(bh *h) {
  bh_writen(h, "a", "a b\n"
    "  c\td\n"
    "E f\n"
    "\n"
    "x\n", 17);
  bh_writen(h, "b", "a  b \n"
    " c d\n"
    "e F\n"
    "\n"
    "\n"
    "y\n", 19);
  int st = bh_runb(h, "", 0, "diff", "-y", "-W", "60", "--suppress-common-lines", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 78);
  assert_memory_equal(h->out.data, "a b\t\t\t     |\ta  b \n"
    "  c\td\t\t     |\t c d\n"
    "E f\t\t\t     |\te F\n"
    "x\t\t\t     |\n"
    "\t\t\t     >\ty\n", 78);
  assert_string_equal(bh_err(h), "");
}
static void c19(bh *h) {
  bh_writen(h, "a", "a b\n"
    "  c\td\n"
    "E f\n"
    "\n"
    "x\n", 17);
  bh_writen(h, "b", "a  b \n"
    " c d\n"
    "e F\n"
    "\n"
    "\n"
    "y\n", 19);
  int st = bh_runb(h, "", 0, "diff", "-y", "-W", "60", "--left-column", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 88);
  assert_memory_equal(h->out.data, "a b\t\t\t     |\ta  b \n"
    "  c\td\t\t     |\t c d\n"
    "E f\t\t\t     |\te F\n"
    "\t\t\t     (\n"
    "x\t\t\t     |\n"
    "\t\t\t     >\ty\n", 88);
  assert_string_equal(bh_err(h), "");
}
static void c20(bh *h) {
  bh_writen(h, "a", "a b\n"
    "  c\td\n"
    "E f\n"
    "\n"
    "x\n", 17);
  bh_writen(h, "b", "a  b \n"
    " c d\n"
    "e F\n"
    "\n"
    "\n"
    "y\n", 19);
  int st = bh_runb(h, "", 0, "diff", "-y", "-W", "60", "-t", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 177);
  assert_memory_equal(h->out.data, "a b                          |  a  b \n"
    "  c     d                    |   c d\n"
    "E f                          |  e F\n"
    "\n"
    "x                            |\n"
    "                             >  y\n", 177);
  assert_string_equal(bh_err(h), "");
}
static void c21(bh *h) {
  bh_writen(h, "a", "int main()\n"
    "{\n"
    "  a;\n"
    "  b;\n"
    "  c;\n"
    "  d;\n"
    "  e;\n"
    "  f;\n"
    "}\n"
    "static int g(void)\n"
    "{\n"
    "  x;\n"
    "  y;\n"
    "  z;\n"
    "  w;\n"
    "}\n", 88);
  bh_writen(h, "b", "int main()\n"
    "{\n"
    "  a;\n"
    "  b;\n"
    "  c;\n"
    "  d;\n"
    "  E;\n"
    "  f;\n"
    "}\n"
    "static int g(void)\n"
    "{\n"
    "  x;\n"
    "  y;\n"
    "  z;\n"
    "  W;\n"
    "}\n", 88);
  int st = bh_runb(h, "", 0, "diff", "-p", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 316);
  assert_memory_equal(h->out.data, "*** A\n"
    "--- B\n"
    "*************** int main()\n"
    "*** 4,10 ****\n"
    "    b;\n"
    "    c;\n"
    "    d;\n"
    "!   e;\n"
    "    f;\n"
    "  }\n"
    "  static int g(void)\n"
    "--- 4,10 ----\n"
    "    b;\n"
    "    c;\n"
    "    d;\n"
    "!   E;\n"
    "    f;\n"
    "  }\n"
    "  static int g(void)\n"
    "*************** static int g(void)\n"
    "*** 12,16 ****\n"
    "    x;\n"
    "    y;\n"
    "    z;\n"
    "!   w;\n"
    "  }\n"
    "--- 12,16 ----\n"
    "    x;\n"
    "    y;\n"
    "    z;\n"
    "!   W;\n"
    "  }\n", 316);
  assert_string_equal(bh_err(h), "");
}
static void c22(bh *h) {
  bh_writen(h, "a", "int main()\n"
    "{\n"
    "  a;\n"
    "  b;\n"
    "  c;\n"
    "  d;\n"
    "  e;\n"
    "  f;\n"
    "}\n"
    "static int g(void)\n"
    "{\n"
    "  x;\n"
    "  y;\n"
    "  z;\n"
    "  w;\n"
    "}\n", 88);
  bh_writen(h, "b", "int main()\n"
    "{\n"
    "  a;\n"
    "  b;\n"
    "  c;\n"
    "  d;\n"
    "  E;\n"
    "  f;\n"
    "}\n"
    "static int g(void)\n"
    "{\n"
    "  x;\n"
    "  y;\n"
    "  z;\n"
    "  W;\n"
    "}\n", 88);
  int st = bh_runb(h, "", 0, "diff", "-u", "-p", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 168);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -4,7 +4,7 @@ int main()\n"
    "   b;\n"
    "   c;\n"
    "   d;\n"
    "-  e;\n"
    "+  E;\n"
    "   f;\n"
    " }\n"
    " static int g(void)\n"
    "@@ -12,5 +12,5 @@ static int g(void)\n"
    "   x;\n"
    "   y;\n"
    "   z;\n"
    "-  w;\n"
    "+  W;\n"
    " }\n", 168);
  assert_string_equal(bh_err(h), "");
}
static void c23(bh *h) {
  bh_writen(h, "z1", "\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000", 100);
  bh_writen(h, "z2", "\000x", 2);
  int st = bh_runb(h, "", 0, "diff", "z1", "z2", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 30);
  assert_memory_equal(h->out.data, "Binary files z1 and z2 differ\n", 30);
  assert_string_equal(bh_err(h), "");
}
static void c24(bh *h) {
  bh_writen(h, "z1", "\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000", 100);
  bh_writen(h, "z2", "\000x", 2);
  int st = bh_runb(h, "", 0, "diff", "-a", "z1", "z2", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 172);
  assert_memory_equal(h->out.data, "1c1\n"
    "< \000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\n"
    "\\ No newline at end of file\n"
    "---\n"
    "> \000x\n"
    "\\ No newline at end of file\n", 172);
  assert_string_equal(bh_err(h), "");
}
static void c25(bh *h) {
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/x", "a\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2", 0755);
  bh_writen(h, "d2/x", "b\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d1/s", 0755);
  bh_writen(h, "d1/s/q", "q\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2/s", 0755);
  bh_writen(h, "d2/s/q", "r\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/f", "f\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2/f", 0755);
  vfs_mkdir_p(h->vfs, h->cwd, "d1/only", 0755);
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/o2", "o\n", 2);
  int st = bh_runb(h, "", 0, "diff", "d1", "d2", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 159);
  assert_memory_equal(h->out.data, "File d1/f is a regular file while file d2/f is a directory\n"
    "Only in d1: o2\n"
    "Only in d1: only\n"
    "Common subdirectories: d1/s and d2/s\n"
    "diff d1/x d2/x\n"
    "1c1\n"
    "< a\n"
    "---\n"
    "> b\n", 159);
  assert_string_equal(bh_err(h), "");
}
static void c26(bh *h) {
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/x", "a\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2", 0755);
  bh_writen(h, "d2/x", "b\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d1/s", 0755);
  bh_writen(h, "d1/s/q", "q\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2/s", 0755);
  bh_writen(h, "d2/s/q", "r\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/f", "f\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2/f", 0755);
  vfs_mkdir_p(h->vfs, h->cwd, "d1/only", 0755);
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/o2", "o\n", 2);
  int st = bh_runb(h, "", 0, "diff", "-r", "d1", "d2", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 163);
  assert_memory_equal(h->out.data, "File d1/f is a regular file while file d2/f is a directory\n"
    "Only in d1: o2\n"
    "Only in d1: only\n"
    "diff -r d1/s/q d2/s/q\n"
    "1c1\n"
    "< q\n"
    "---\n"
    "> r\n"
    "diff -r d1/x d2/x\n"
    "1c1\n"
    "< a\n"
    "---\n"
    "> b\n", 163);
  assert_string_equal(bh_err(h), "");
}
static void c27(bh *h) {
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/x", "a\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2", 0755);
  bh_writen(h, "d2/x", "b\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d1/s", 0755);
  bh_writen(h, "d1/s/q", "q\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2/s", 0755);
  bh_writen(h, "d2/s/q", "r\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/f", "f\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2/f", 0755);
  vfs_mkdir_p(h->vfs, h->cwd, "d1/only", 0755);
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/o2", "o\n", 2);
  int st = bh_runb(h, "", 0, "diff", "-rN", "d1", "d2", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 162);
  assert_memory_equal(h->out.data, "File d1/f is a regular file while file d2/f is a directory\n"
    "diff -rN d1/o2 d2/o2\n"
    "1d0\n"
    "< o\n"
    "diff -rN d1/s/q d2/s/q\n"
    "1c1\n"
    "< q\n"
    "---\n"
    "> r\n"
    "diff -rN d1/x d2/x\n"
    "1c1\n"
    "< a\n"
    "---\n"
    "> b\n", 162);
  assert_string_equal(bh_err(h), "");
}
static void c28(bh *h) {
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/x", "a\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2", 0755);
  bh_writen(h, "d2/x", "b\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d1/s", 0755);
  bh_writen(h, "d1/s/q", "q\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2/s", 0755);
  bh_writen(h, "d2/s/q", "r\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/f", "f\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2/f", 0755);
  vfs_mkdir_p(h->vfs, h->cwd, "d1/only", 0755);
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/o2", "o\n", 2);
  int st = bh_runb(h, "", 0, "diff", "-r", "--unidirectional-new-file", "d2", "d1", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 237);
  assert_memory_equal(h->out.data, "File d2/f is a directory while file d1/f is a regular file\n"
    "diff -r --unidirectional-new-file d2/o2 d1/o2\n"
    "0a1\n"
    "> o\n"
    "diff -r --unidirectional-new-file d2/s/q d1/s/q\n"
    "1c1\n"
    "< r\n"
    "---\n"
    "> q\n"
    "diff -r --unidirectional-new-file d2/x d1/x\n"
    "1c1\n"
    "< b\n"
    "---\n"
    "> a\n", 237);
  assert_string_equal(bh_err(h), "");
}
static void c29(bh *h) {
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/x", "a\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2", 0755);
  bh_writen(h, "d2/x", "b\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d1/s", 0755);
  bh_writen(h, "d1/s/q", "q\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2/s", 0755);
  bh_writen(h, "d2/s/q", "r\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/f", "f\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2/f", 0755);
  vfs_mkdir_p(h->vfs, h->cwd, "d1/only", 0755);
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/o2", "o\n", 2);
  int st = bh_runb(h, "", 0, "diff", "-qr", "d1", "d2", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 149);
  assert_memory_equal(h->out.data, "File d1/f is a regular file while file d2/f is a directory\n"
    "Only in d1: o2\n"
    "Only in d1: only\n"
    "Files d1/s/q and d2/s/q differ\n"
    "Files d1/x and d2/x differ\n", 149);
  assert_string_equal(bh_err(h), "");
}
static void c30(bh *h) {
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/x", "a\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2", 0755);
  bh_writen(h, "d2/x", "b\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d1/s", 0755);
  bh_writen(h, "d1/s/q", "q\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2/s", 0755);
  bh_writen(h, "d2/s/q", "r\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/f", "f\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2/f", 0755);
  vfs_mkdir_p(h->vfs, h->cwd, "d1/only", 0755);
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/o2", "o\n", 2);
  int st = bh_runb(h, "", 0, "diff", "-r", "-x", "s", "-x", "o*", "d1", "d2", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 106);
  assert_memory_equal(h->out.data, "File d1/f is a regular file while file d2/f is a directory\n"
    "diff -r -x s -x 'o*' d1/x d2/x\n"
    "1c1\n"
    "< a\n"
    "---\n"
    "> b\n", 106);
  assert_string_equal(bh_err(h), "");
}
static void c31(bh *h) {
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/x", "a\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2", 0755);
  bh_writen(h, "d2/x", "b\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d1/s", 0755);
  bh_writen(h, "d1/s/q", "q\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2/s", 0755);
  bh_writen(h, "d2/s/q", "r\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/f", "f\n", 2);
  vfs_mkdir_p(h->vfs, h->cwd, "d2/f", 0755);
  vfs_mkdir_p(h->vfs, h->cwd, "d1/only", 0755);
  vfs_mkdir_p(h->vfs, h->cwd, "d1", 0755);
  bh_writen(h, "d1/o2", "o\n", 2);
  int st = bh_runb(h, "", 0, "diff", "d1/x", "d2", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 16);
  assert_memory_equal(h->out.data, "1c1\n"
    "< a\n"
    "---\n"
    "> b\n", 16);
  assert_string_equal(bh_err(h), "");
}
static void c32(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  int st = bh_runb(h, "", 0, "diff", "nonexist", "a", NULL);
  assert_int_equal(st, 2);
  assert_int_equal(h->out.len, 0);
  assert_memory_equal(h->out.data, "", 0);
  assert_string_equal(bh_err(h), "diff: nonexist: No such file or directory\n");
}
static void c33(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  int st = bh_runb(h, "", 0, "diff", "-N", "nonexist", "a", "--label", "X", "--label", "Y", "-u", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 59);
  assert_memory_equal(h->out.data, "--- X\n"
    "+++ Y\n"
    "@@ -0,0 +1,10 @@\n"
    "+a\n"
    "+b\n"
    "+c\n"
    "+d\n"
    "+e\n"
    "+f\n"
    "+g\n"
    "+h\n"
    "+i\n"
    "+j\n", 59);
  assert_string_equal(bh_err(h), "");
}
static void c34(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  int st = bh_runb(h, "", 0, "diff", "a", NULL);
  assert_int_equal(st, 2);
  assert_int_equal(h->out.len, 0);
  assert_memory_equal(h->out.data, "", 0);
  assert_string_equal(bh_err(h), "diff: missing operand after 'a'\n"
    "diff: Try 'diff --help' for more information.\n");
}
static void c35(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  int st = bh_runb(h, "", 0, "diff", "-z", "a", "a", NULL);
  assert_int_equal(st, 2);
  assert_int_equal(h->out.len, 0);
  assert_memory_equal(h->out.data, "", 0);
  assert_string_equal(bh_err(h), "diff: invalid option -- 'z'\n"
    "diff: Try 'diff --help' for more information.\n");
}
static void c36(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  int st = bh_runb(h, "", 0, "diff", "--foo", "a", "a", NULL);
  assert_int_equal(st, 2);
  assert_int_equal(h->out.len, 0);
  assert_memory_equal(h->out.data, "", 0);
  assert_string_equal(bh_err(h), "diff: unrecognized option '--foo'\n"
    "diff: Try 'diff --help' for more information.\n");
}
static void c37(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  int st = bh_runb(h, "", 0, "diff", "-U", "x", "a", "a", NULL);
  assert_int_equal(st, 2);
  assert_int_equal(h->out.len, 0);
  assert_memory_equal(h->out.data, "", 0);
  assert_string_equal(bh_err(h), "diff: invalid context length 'x'\n"
    "diff: Try 'diff --help' for more information.\n");
}
static void c38(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  bh_writen(h, "b", "a\n"
    "B\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "I\n"
    "j\n"
    "k\n", 22);
  int st = bh_runb(h, "", 0, "diff", "-u", "-c", "a", "b", NULL);
  assert_int_equal(st, 2);
  assert_int_equal(h->out.len, 0);
  assert_memory_equal(h->out.data, "", 0);
  assert_string_equal(bh_err(h), "diff: conflicting output style options\n"
    "diff: Try 'diff --help' for more information.\n");
}
static void c39(bh *h) {
  bh_writen(h, "a", "a\n"
    "b\n"
    "c\n"
    "d\n"
    "e\n"
    "f\n"
    "g\n"
    "h\n"
    "i\n"
    "j\n", 20);
  int st = bh_runb(h, "a\n"
    "b\n", 4, "diff", "-", "a", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 39);
  assert_memory_equal(h->out.data, "2a3,10\n"
    "> c\n"
    "> d\n"
    "> e\n"
    "> f\n"
    "> g\n"
    "> h\n"
    "> i\n"
    "> j\n", 39);
  assert_string_equal(bh_err(h), "");
}
static void c40(bh *h) {
  bh_writen(h, "a", "19\n"
    "11\n"
    "8\n"
    "9\n"
    "16\n"
    "17\n"
    "11\n"
    "10\n"
    "5\n"
    "5\n", 26);
  bh_writen(h, "b", "19\n"
    "8\n"
    "8\n"
    "15\n"
    "1\n"
    "14\n"
    "16\n"
    "17\n"
    "4\n"
    "11\n"
    "10\n"
    "5\n"
    "16\n", 34);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 68);
  assert_memory_equal(h->out.data, "2d1\n"
    "< 11\n"
    "4c3,6\n"
    "< 9\n"
    "---\n"
    "> 8\n"
    "> 15\n"
    "> 1\n"
    "> 14\n"
    "6a9\n"
    "> 4\n"
    "10c13\n"
    "< 5\n"
    "---\n"
    "> 16\n", 68);
  assert_string_equal(bh_err(h), "");
}
static void c41(bh *h) {
  bh_writen(h, "a", "1\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n", 80);
  bh_writen(h, "b", "1\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n", 78);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 51);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -21,7 +21,6 @@\n"
    " 1\n"
    " 0\n"
    " 0\n"
    "-0\n"
    " 1\n"
    " 1\n"
    " 1\n", 51);
  assert_string_equal(bh_err(h), "");
}
static void c42(bh *h) {
  bh_writen(h, "a", "1\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n", 80);
  bh_writen(h, "b", "1\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n", 80);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 0);
  assert_int_equal(h->out.len, 0);
  assert_memory_equal(h->out.data, "", 0);
  assert_string_equal(bh_err(h), "");
}
static void c43(bh *h) {
  bh_writen(h, "a", "0\n"
    "0\n"
    "2\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "2\n", 20);
  bh_writen(h, "b", "0\n"
    "0\n"
    "2\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "2\n", 20);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 52);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -4,7 +4,7 @@\n"
    " 1\n"
    " 1\n"
    " 0\n"
    "-1\n"
    "+0\n"
    " 1\n"
    " 1\n"
    " 2\n", 52);
  assert_string_equal(bh_err(h), "");
}
static void c44(bh *h) {
  bh_writen(h, "a", "0\n"
    "2\n"
    "0\n"
    "0\n"
    "1\n"
    "2\n"
    "0\n"
    "2\n"
    "2\n"
    "0\n", 20);
  bh_writen(h, "b", "0\n"
    "2\n"
    "0\n"
    "2\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "2\n"
    "2\n"
    "0\n", 22);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 24);
  assert_memory_equal(h->out.data, "3a4\n"
    "> 2\n"
    "6c7\n"
    "< 2\n"
    "---\n"
    "> 1\n", 24);
  assert_string_equal(bh_err(h), "");
}
static void c45(bh *h) {
  bh_writen(h, "a", "3\n"
    "0\n"
    "7\n"
    "14\n"
    "5\n"
    "18\n"
    "2\n"
    "0\n"
    "7\n"
    "17\n"
    "18\n"
    "2\n"
    "13\n"
    "2\n"
    "2\n"
    "2\n"
    "18\n"
    "11\n"
    "7\n"
    "13\n", 48);
  bh_writen(h, "b", "0\n"
    "11\n"
    "7\n"
    "14\n"
    "5\n"
    "17\n"
    "2\n"
    "0\n"
    "7\n"
    "17\n"
    "18\n"
    "2\n"
    "13\n"
    "2\n"
    "2\n"
    "2\n"
    "18\n"
    "11\n"
    "7\n"
    "19\n"
    "13\n", 52);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 102);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -1,9 +1,9 @@\n"
    "-3\n"
    " 0\n"
    "+11\n"
    " 7\n"
    " 14\n"
    " 5\n"
    "-18\n"
    "+17\n"
    " 2\n"
    " 0\n"
    " 7\n"
    "@@ -17,4 +17,5 @@\n"
    " 18\n"
    " 11\n"
    " 7\n"
    "+19\n"
    " 13\n", 102);
  assert_string_equal(bh_err(h), "");
}
static void c46(bh *h) {
  bh_writen(h, "a", "12\n"
    "14\n"
    "0\n"
    "5\n"
    "18\n"
    "3\n"
    "12\n"
    "15\n"
    "13\n"
    "15\n"
    "5\n"
    "1\n"
    "1\n"
    "10\n"
    "6\n"
    "19\n"
    "3\n"
    "4\n"
    "14\n"
    "15\n", 51);
  bh_writen(h, "b", "14\n"
    "0\n"
    "5\n"
    "7\n"
    "3\n"
    "12\n"
    "15\n"
    "13\n"
    "13\n"
    "15\n"
    "5\n"
    "1\n"
    "1\n"
    "10\n"
    "6\n"
    "19\n"
    "3\n"
    "4\n"
    "14\n"
    "15\n", 50);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 35);
  assert_memory_equal(h->out.data, "1d0\n"
    "< 12\n"
    "5c4\n"
    "< 18\n"
    "---\n"
    "> 7\n"
    "8a8\n"
    "> 13\n", 35);
  assert_string_equal(bh_err(h), "");
}
static void c47(bh *h) {
  bh_writen(h, "a", "2\n"
    "2\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "2\n"
    "0\n"
    "1\n"
    "2\n"
    "2\n"
    "1\n"
    "2\n"
    "0\n"
    "0\n"
    "2\n"
    "2\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "2\n"
    "1\n"
    "1\n"
    "1\n"
    "2\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n", 80);
  bh_writen(h, "b", "2\n"
    "2\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "2\n"
    "0\n"
    "1\n"
    "2\n"
    "2\n"
    "1\n"
    "2\n"
    "0\n"
    "0\n"
    "2\n"
    "2\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "2\n"
    "2\n"
    "1\n"
    "1\n"
    "1\n"
    "2\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n", 82);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 51);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -27,6 +27,7 @@\n"
    " 1\n"
    " 1\n"
    " 2\n"
    "+2\n"
    " 1\n"
    " 1\n"
    " 1\n", 51);
  assert_string_equal(bh_err(h), "");
}
static void c48(bh *h) {
  bh_writen(h, "a", "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n", 20);
  bh_writen(h, "b", "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n", 20);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 0);
  assert_int_equal(h->out.len, 0);
  assert_memory_equal(h->out.data, "", 0);
  assert_string_equal(bh_err(h), "");
}
static void c49(bh *h) {
  bh_writen(h, "a", "0\n"
    "1\n"
    "1\n"
    "1\n"
    "2\n"
    "1\n"
    "0\n"
    "1\n"
    "2\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "2\n"
    "2\n"
    "1\n"
    "1\n"
    "2\n"
    "0\n", 40);
  bh_writen(h, "b", "2\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "2\n"
    "2\n"
    "1\n"
    "0\n"
    "2\n"
    "2\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "2\n"
    "2\n"
    "1\n"
    "1\n"
    "2\n"
    "0\n", 48);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 96);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -1,17 +1,21 @@\n"
    "+2\n"
    " 0\n"
    " 1\n"
    " 1\n"
    " 1\n"
    " 2\n"
    "+2\n"
    " 1\n"
    " 0\n"
    "-1\n"
    " 2\n"
    "+2\n"
    "+0\n"
    " 1\n"
    " 0\n"
    " 0\n"
    " 1\n"
    " 1\n"
    "+0\n"
    " 2\n"
    " 2\n"
    " 1\n", 96);
  assert_string_equal(bh_err(h), "");
}
static void c50(bh *h) {
  bh_writen(h, "a", "0\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n", 10);
  bh_writen(h, "b", "0\n"
    "0\n"
    "0\n"
    "1\n", 8);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 22);
  assert_memory_equal(h->out.data, "4,5c4\n"
    "< 0\n"
    "< 0\n"
    "---\n"
    "> 1\n", 22);
  assert_string_equal(bh_err(h), "");
}
static void c51(bh *h) {
  bh_writen(h, "a", "2\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n", 10);
  bh_writen(h, "b", "2\n"
    "2\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "2\n"
    "0\n", 16);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 55);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -1,5 +1,8 @@\n"
    " 2\n"
    "+2\n"
    "+0\n"
    " 0\n"
    " 0\n"
    " 0\n"
    "-1\n"
    "+2\n"
    "+0\n", 55);
  assert_string_equal(bh_err(h), "");
}
static void c52(bh *h) {
  bh_writen(h, "a", "1\n"
    "2\n"
    "2\n"
    "1\n"
    "2\n", 10);
  bh_writen(h, "b", "1\n"
    "2\n"
    "2\n", 6);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 14);
  assert_memory_equal(h->out.data, "4,5d3\n"
    "< 1\n"
    "< 2\n", 14);
  assert_string_equal(bh_err(h), "");
}
static void c53(bh *h) {
  bh_writen(h, "a", "2\n"
    "2\n"
    "0\n"
    "1\n"
    "2\n"
    "0\n"
    "2\n"
    "1\n"
    "1\n"
    "2\n"
    "0\n"
    "2\n"
    "2\n"
    "2\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "2\n"
    "2\n"
    "0\n"
    "2\n"
    "2\n"
    "2\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "2\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "2\n"
    "1\n"
    "2\n"
    "2\n"
    "2\n", 80);
  bh_writen(h, "b", "2\n"
    "2\n"
    "0\n"
    "1\n"
    "2\n"
    "0\n"
    "2\n"
    "1\n"
    "1\n"
    "2\n"
    "0\n"
    "2\n"
    "2\n"
    "2\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "2\n"
    "2\n"
    "0\n"
    "2\n"
    "0\n"
    "2\n"
    "2\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "2\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "2\n"
    "1\n"
    "2\n"
    "2\n"
    "2\n", 82);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 51);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -20,6 +20,7 @@\n"
    " 2\n"
    " 0\n"
    " 2\n"
    "+0\n"
    " 2\n"
    " 2\n"
    " 0\n", 51);
  assert_string_equal(bh_err(h), "");
}
static void c54(bh *h) {
  bh_writen(h, "a", "4\n"
    "15\n"
    "12\n"
    "0\n"
    "14\n"
    "10\n"
    "2\n"
    "3\n"
    "15\n"
    "0\n", 25);
  bh_writen(h, "b", "4\n"
    "15\n"
    "7\n"
    "0\n"
    "14\n"
    "10\n"
    "2\n"
    "3\n"
    "15\n"
    "0\n", 24);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 17);
  assert_memory_equal(h->out.data, "3c3\n"
    "< 12\n"
    "---\n"
    "> 7\n", 17);
  assert_string_equal(bh_err(h), "");
}
static void c55(bh *h) {
  bh_writen(h, "a", "7\n"
    "1\n"
    "18\n"
    "9\n"
    "8\n"
    "11\n"
    "13\n"
    "1\n"
    "0\n"
    "11\n"
    "10\n"
    "0\n"
    "15\n"
    "18\n"
    "12\n"
    "16\n"
    "2\n"
    "5\n"
    "13\n"
    "2\n", 50);
  bh_writen(h, "b", "7\n"
    "1\n"
    "18\n"
    "18\n"
    "9\n"
    "8\n"
    "5\n"
    "11\n"
    "13\n"
    "1\n"
    "0\n"
    "11\n"
    "0\n"
    "15\n"
    "18\n"
    "12\n"
    "16\n"
    "2\n"
    "5\n"
    "13\n", 50);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 117);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -1,14 +1,15 @@\n"
    " 7\n"
    " 1\n"
    " 18\n"
    "+18\n"
    " 9\n"
    " 8\n"
    "+5\n"
    " 11\n"
    " 13\n"
    " 1\n"
    " 0\n"
    " 11\n"
    "-10\n"
    " 0\n"
    " 15\n"
    " 18\n"
    "@@ -17,4 +18,3 @@\n"
    " 2\n"
    " 5\n"
    " 13\n"
    "-2\n", 117);
  assert_string_equal(bh_err(h), "");
}
static void c56(bh *h) {
  bh_writen(h, "a", "2\n"
    "11\n"
    "9\n"
    "6\n"
    "1\n"
    "10\n"
    "4\n"
    "4\n"
    "10\n"
    "16\n"
    "4\n"
    "7\n"
    "12\n"
    "19\n"
    "16\n"
    "6\n"
    "19\n"
    "6\n"
    "8\n"
    "18\n", 49);
  bh_writen(h, "b", "2\n"
    "11\n"
    "9\n"
    "6\n"
    "1\n"
    "10\n"
    "4\n"
    "4\n"
    "16\n"
    "4\n"
    "7\n"
    "12\n"
    "19\n"
    "16\n"
    "6\n"
    "6\n"
    "8\n"
    "18\n", 43);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 20);
  assert_memory_equal(h->out.data, "9d8\n"
    "< 10\n"
    "17d15\n"
    "< 19\n", 20);
  assert_string_equal(bh_err(h), "");
}
static void c57(bh *h) {
  bh_writen(h, "a", "2\n"
    "0\n"
    "1\n"
    "2\n"
    "2\n"
    "2\n"
    "0\n"
    "1\n"
    "1\n"
    "2\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "2\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n", 40);
  bh_writen(h, "b", "0\n"
    "1\n"
    "0\n"
    "2\n"
    "0\n"
    "2\n"
    "1\n"
    "1\n"
    "2\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "2\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "2\n", 42);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 105);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -1,20 +1,21 @@\n"
    "-2\n"
    " 0\n"
    " 1\n"
    "-2\n"
    "-2\n"
    "+0\n"
    " 2\n"
    " 0\n"
    "+2\n"
    " 1\n"
    " 1\n"
    " 2\n"
    " 1\n"
    " 0\n"
    "-1\n"
    " 0\n"
    "+1\n"
    " 0\n"
    " 2\n"
    " 0\n"
    " 0\n"
    " 1\n"
    " 0\n"
    "+0\n"
    "+2\n", 105);
  assert_string_equal(bh_err(h), "");
}
static void c58(bh *h) {
  bh_writen(h, "a", "1\n"
    "1\n"
    "1\n"
    "0\n"
    "2\n", 10);
  bh_writen(h, "b", "2\n"
    "2\n"
    "2\n"
    "1\n"
    "2\n", 10);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 36);
  assert_memory_equal(h->out.data, "0a1,3\n"
    "> 2\n"
    "> 2\n"
    "> 2\n"
    "2,4d4\n"
    "< 1\n"
    "< 1\n"
    "< 0\n", 36);
  assert_string_equal(bh_err(h), "");
}
static void c59(bh *h) {
  bh_writen(h, "a", "0\n"
    "2\n"
    "1\n"
    "1\n"
    "2\n"
    "1\n"
    "0\n"
    "0\n"
    "2\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "2\n"
    "0\n"
    "1\n"
    "2\n"
    "2\n"
    "0\n"
    "2\n"
    "1\n"
    "2\n"
    "2\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "2\n"
    "1\n"
    "1\n"
    "2\n"
    "1\n"
    "2\n"
    "2\n"
    "1\n"
    "2\n"
    "1\n", 80);
  bh_writen(h, "b", "0\n"
    "2\n"
    "1\n"
    "1\n"
    "2\n"
    "1\n"
    "0\n"
    "0\n"
    "2\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "2\n"
    "0\n"
    "1\n"
    "2\n"
    "2\n"
    "0\n"
    "2\n"
    "1\n"
    "2\n"
    "2\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "2\n"
    "1\n"
    "1\n"
    "2\n"
    "2\n"
    "1\n"
    "2\n"
    "1\n", 76);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 54);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -32,8 +32,6 @@\n"
    " 1\n"
    " 1\n"
    " 2\n"
    "-1\n"
    "-2\n"
    " 2\n"
    " 1\n"
    " 2\n", 54);
  assert_string_equal(bh_err(h), "");
}
static void c60(bh *h) {
  bh_writen(h, "a", "0\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n", 20);
  bh_writen(h, "b", "0\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n", 20);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 0);
  assert_int_equal(h->out.len, 0);
  assert_memory_equal(h->out.data, "", 0);
  assert_string_equal(bh_err(h), "");
}
static void c61(bh *h) {
  bh_writen(h, "a", "15\n"
    "1\n"
    "16\n"
    "16\n"
    "16\n"
    "9\n"
    "18\n"
    "14\n"
    "9\n"
    "16\n", 27);
  bh_writen(h, "b", "15\n"
    "1\n"
    "16\n"
    "16\n"
    "16\n"
    "9\n"
    "18\n"
    "14\n"
    "9\n"
    "16\n"
    "5\n", 29);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 42);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -8,3 +8,4 @@\n"
    " 14\n"
    " 9\n"
    " 16\n"
    "+5\n", 42);
  assert_string_equal(bh_err(h), "");
}
static void c62(bh *h) {
  bh_writen(h, "a", "0\n"
    "1\n"
    "2\n"
    "4\n"
    "1\n"
    "1\n"
    "2\n"
    "1\n"
    "3\n"
    "4\n"
    "1\n"
    "2\n"
    "0\n"
    "3\n"
    "4\n"
    "3\n"
    "2\n"
    "4\n"
    "2\n"
    "2\n"
    "2\n"
    "4\n"
    "1\n"
    "4\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "4\n"
    "2\n"
    "3\n"
    "1\n"
    "4\n"
    "1\n"
    "3\n"
    "0\n"
    "3\n"
    "1\n"
    "2\n", 80);
  bh_writen(h, "b", "0\n"
    "1\n"
    "2\n"
    "4\n"
    "1\n"
    "1\n"
    "2\n"
    "1\n"
    "4\n"
    "1\n"
    "2\n"
    "0\n"
    "3\n"
    "4\n"
    "3\n"
    "2\n"
    "4\n"
    "2\n"
    "2\n"
    "2\n"
    "4\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "4\n"
    "2\n"
    "3\n"
    "1\n"
    "4\n"
    "1\n"
    "3\n"
    "0\n"
    "1\n"
    "2\n", 74);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 28);
  assert_memory_equal(h->out.data, "9d8\n"
    "< 3\n"
    "24d22\n"
    "< 4\n"
    "38d35\n"
    "< 3\n", 28);
  assert_string_equal(bh_err(h), "");
}
static void c63(bh *h) {
  bh_writen(h, "a", "1\n"
    "3\n"
    "2\n"
    "3\n"
    "0\n"
    "4\n"
    "2\n"
    "4\n"
    "2\n"
    "3\n", 20);
  bh_writen(h, "b", "1\n"
    "3\n"
    "2\n"
    "3\n"
    "0\n"
    "4\n"
    "2\n"
    "4\n"
    "2\n"
    "3\n", 20);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 0);
  assert_int_equal(h->out.len, 0);
  assert_memory_equal(h->out.data, "", 0);
  assert_string_equal(bh_err(h), "");
}
static void c64(bh *h) {
  bh_writen(h, "a", "6\n"
    "6\n"
    "9\n"
    "6\n"
    "7\n"
    "3\n"
    "9\n"
    "16\n"
    "16\n"
    "5\n"
    "14\n"
    "15\n"
    "11\n"
    "2\n"
    "2\n"
    "10\n"
    "18\n"
    "19\n"
    "7\n"
    "4\n", 48);
  bh_writen(h, "b", "6\n"
    "6\n"
    "17\n"
    "9\n"
    "6\n"
    "7\n"
    "3\n"
    "13\n"
    "16\n"
    "16\n"
    "5\n"
    "15\n"
    "11\n"
    "2\n"
    "2\n"
    "10\n"
    "18\n"
    "19\n"
    "7\n"
    "4\n", 49);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 37);
  assert_memory_equal(h->out.data, "2a3\n"
    "> 17\n"
    "7c8\n"
    "< 9\n"
    "---\n"
    "> 13\n"
    "11d11\n"
    "< 14\n", 37);
  assert_string_equal(bh_err(h), "");
}
static void c65(bh *h) {
  bh_writen(h, "a", "13\n"
    "12\n"
    "16\n"
    "15\n"
    "18\n"
    "1\n"
    "2\n"
    "14\n"
    "9\n"
    "2\n", 26);
  bh_writen(h, "b", "13\n"
    "16\n"
    "15\n"
    "10\n"
    "1\n"
    "2\n"
    "14\n"
    "9\n"
    "2\n", 23);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 62);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -1,8 +1,7 @@\n"
    " 13\n"
    "-12\n"
    " 16\n"
    " 15\n"
    "-18\n"
    "+10\n"
    " 1\n"
    " 2\n"
    " 14\n", 62);
  assert_string_equal(bh_err(h), "");
}
static void c66(bh *h) {
  bh_writen(h, "a", "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n", 80);
  bh_writen(h, "b", "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n", 80);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 0);
  assert_int_equal(h->out.len, 0);
  assert_memory_equal(h->out.data, "", 0);
  assert_string_equal(bh_err(h), "");
}
static void c67(bh *h) {
  bh_writen(h, "a", "3\n"
    "2\n"
    "1\n"
    "2\n"
    "2\n"
    "4\n"
    "3\n"
    "2\n"
    "4\n"
    "3\n"
    "0\n"
    "1\n"
    "4\n"
    "1\n"
    "0\n"
    "4\n"
    "4\n"
    "0\n"
    "4\n"
    "3\n"
    "2\n"
    "3\n"
    "2\n"
    "2\n"
    "4\n"
    "2\n"
    "4\n"
    "0\n"
    "3\n"
    "3\n"
    "2\n"
    "2\n"
    "0\n"
    "0\n"
    "4\n"
    "3\n"
    "2\n"
    "1\n"
    "1\n"
    "3\n", 80);
  bh_writen(h, "b", "2\n"
    "1\n"
    "2\n"
    "2\n"
    "4\n"
    "3\n"
    "2\n"
    "4\n"
    "3\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "4\n"
    "4\n"
    "0\n"
    "4\n"
    "3\n"
    "2\n"
    "3\n"
    "2\n"
    "2\n"
    "4\n"
    "2\n"
    "1\n"
    "4\n"
    "0\n"
    "3\n"
    "3\n"
    "2\n"
    "2\n"
    "0\n"
    "0\n"
    "4\n"
    "3\n"
    "2\n"
    "1\n"
    "1\n"
    "3\n", 80);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 120);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -1,4 +1,3 @@\n"
    "-3\n"
    " 2\n"
    " 1\n"
    " 2\n"
    "@@ -10,7 +9,7 @@\n"
    " 3\n"
    " 0\n"
    " 1\n"
    "-4\n"
    "+1\n"
    " 1\n"
    " 0\n"
    " 4\n"
    "@@ -24,6 +23,7 @@\n"
    " 2\n"
    " 4\n"
    " 2\n"
    "+1\n"
    " 4\n"
    " 0\n"
    " 3\n", 120);
  assert_string_equal(bh_err(h), "");
}
static void c68(bh *h) {
  bh_writen(h, "a", "1\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n", 20);
  bh_writen(h, "b", "1\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n", 18);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 9);
  assert_memory_equal(h->out.data, "10d9\n"
    "< 0\n", 9);
  assert_string_equal(bh_err(h), "");
}
static void c69(bh *h) {
  bh_writen(h, "a", "0\n"
    "0\n"
    "4\n"
    "2\n"
    "2\n", 10);
  bh_writen(h, "b", "3\n"
    "3\n"
    "4\n"
    "2\n"
    "0\n", 10);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 52);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -1,5 +1,5 @@\n"
    "-0\n"
    "-0\n"
    "+3\n"
    "+3\n"
    " 4\n"
    " 2\n"
    "-2\n"
    "+0\n", 52);
  assert_string_equal(bh_err(h), "");
}
static void c70(bh *h) {
  bh_writen(h, "a", "17\n"
    "7\n"
    "3\n"
    "4\n"
    "2\n"
    "10\n"
    "12\n"
    "7\n"
    "3\n"
    "1\n", 23);
  bh_writen(h, "b", "6\n"
    "17\n"
    "12\n"
    "3\n"
    "4\n"
    "2\n"
    "10\n"
    "12\n"
    "7\n"
    "3\n"
    "1\n", 26);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 25);
  assert_memory_equal(h->out.data, "0a1\n"
    "> 6\n"
    "2c3\n"
    "< 7\n"
    "---\n"
    "> 12\n", 25);
  assert_string_equal(bh_err(h), "");
}
static void c71(bh *h) {
  bh_writen(h, "a", "13\n"
    "0\n"
    "5\n"
    "15\n"
    "8\n"
    "12\n"
    "19\n"
    "0\n"
    "15\n"
    "10\n", 26);
  bh_writen(h, "b", "13\n"
    "0\n"
    "5\n"
    "1\n"
    "8\n"
    "12\n"
    "2\n"
    "0\n"
    "15\n"
    "10\n", 24);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 72);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -1,10 +1,10 @@\n"
    " 13\n"
    " 0\n"
    " 5\n"
    "-15\n"
    "+1\n"
    " 8\n"
    " 12\n"
    "-19\n"
    "+2\n"
    " 0\n"
    " 15\n"
    " 10\n", 72);
  assert_string_equal(bh_err(h), "");
}
static void c72(bh *h) {
  bh_writen(h, "a", "6\n"
    "17\n"
    "8\n"
    "9\n"
    "4\n", 11);
  bh_writen(h, "b", "19\n"
    "6\n"
    "17\n"
    "19\n"
    "5\n", 13);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 42);
  assert_memory_equal(h->out.data, "0a1\n"
    "> 19\n"
    "3,5c4,5\n"
    "< 8\n"
    "< 9\n"
    "< 4\n"
    "---\n"
    "> 19\n"
    "> 5\n", 42);
  assert_string_equal(bh_err(h), "");
}
static void c73(bh *h) {
  bh_writen(h, "a", "0\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n", 20);
  bh_writen(h, "b", "1\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n", 20);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 63);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -1,10 +1,10 @@\n"
    "+1\n"
    " 0\n"
    " 0\n"
    " 0\n"
    " 1\n"
    " 1\n"
    " 1\n"
    "-1\n"
    " 0\n"
    " 0\n"
    " 1\n", 63);
  assert_string_equal(bh_err(h), "");
}
static void c74(bh *h) {
  bh_writen(h, "a", "2\n"
    "1\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "1\n"
    "2\n"
    "1\n"
    "1\n", 20);
  bh_writen(h, "b", "0\n"
    "2\n"
    "2\n"
    "1\n"
    "1\n"
    "0\n"
    "2\n"
    "1\n"
    "2\n"
    "1\n"
    "1\n", 22);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 36);
  assert_memory_equal(h->out.data, "0a1,2\n"
    "> 0\n"
    "> 2\n"
    "5,6c7\n"
    "< 1\n"
    "< 1\n"
    "---\n"
    "> 2\n", 36);
  assert_string_equal(bh_err(h), "");
}
static void c75(bh *h) {
  bh_writen(h, "a", "1\n"
    "1\n"
    "2\n"
    "1\n"
    "2\n"
    "2\n"
    "0\n"
    "2\n"
    "1\n"
    "2\n"
    "1\n"
    "0\n"
    "0\n"
    "2\n"
    "0\n"
    "2\n"
    "1\n"
    "1\n"
    "1\n"
    "0\n", 40);
  bh_writen(h, "b", "1\n"
    "1\n"
    "2\n"
    "1\n"
    "2\n"
    "2\n"
    "1\n"
    "0\n"
    "1\n"
    "1\n"
    "2\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "1\n"
    "0\n", 36);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 87);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -4,17 +4,15 @@\n"
    " 1\n"
    " 2\n"
    " 2\n"
    "+1\n"
    " 0\n"
    "-2\n"
    "+1\n"
    " 1\n"
    " 2\n"
    " 1\n"
    " 0\n"
    " 0\n"
    "-2\n"
    " 0\n"
    "-2\n"
    "-1\n"
    " 1\n"
    " 1\n"
    " 0\n", 87);
  assert_string_equal(bh_err(h), "");
}
static void c76(bh *h) {
  bh_writen(h, "a", "1\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n", 40);
  bh_writen(h, "b", "0\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n"
    "0\n"
    "0\n"
    "0\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n", 48);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 34);
  assert_memory_equal(h->out.data, "0a1\n"
    "> 0\n"
    "5a7\n"
    "> 0\n"
    "7a10\n"
    "> 0\n"
    "8a12\n"
    "> 0\n", 34);
  assert_string_equal(bh_err(h), "");
}
static void c77(bh *h) {
  bh_writen(h, "a", "2\n"
    "2\n"
    "2\n"
    "2\n"
    "1\n"
    "2\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n", 20);
  bh_writen(h, "b", "0\n"
    "2\n"
    "2\n"
    "1\n"
    "2\n"
    "0\n"
    "1\n"
    "0\n"
    "1\n", 18);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 46);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -1,5 +1,4 @@\n"
    "-2\n"
    "-2\n"
    "+0\n"
    " 2\n"
    " 2\n"
    " 1\n", 46);
  assert_string_equal(bh_err(h), "");
}
static void c78(bh *h) {
  bh_writen(h, "a", "18\n"
    "11\n"
    "12\n"
    "1\n"
    "8\n"
    "15\n"
    "7\n"
    "15\n"
    "11\n"
    "13\n", 27);
  bh_writen(h, "b", "17\n"
    "18\n"
    "5\n"
    "11\n"
    "12\n"
    "19\n"
    "1\n"
    "8\n"
    "18\n"
    "18\n"
    "15\n"
    "17\n"
    "11\n"
    "11\n", 39);
  int st = bh_runb(h, "", 0, "diff", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 87);
  assert_memory_equal(h->out.data, "0a1\n"
    "> 17\n"
    "1a3\n"
    "> 5\n"
    "3a6\n"
    "> 19\n"
    "5a9,10\n"
    "> 18\n"
    "> 18\n"
    "7,8c12,13\n"
    "< 7\n"
    "< 15\n"
    "---\n"
    "> 17\n"
    "> 11\n"
    "10d14\n"
    "< 13\n", 87);
  assert_string_equal(bh_err(h), "");
}
static void c79(bh *h) {
  bh_writen(h, "a", "1\n"
    "0\n"
    "0\n"
    "4\n"
    "4\n"
    "3\n"
    "3\n"
    "3\n"
    "0\n"
    "4\n"
    "0\n"
    "1\n"
    "0\n"
    "4\n"
    "2\n"
    "3\n"
    "1\n"
    "2\n"
    "4\n"
    "0\n", 40);
  bh_writen(h, "b", "1\n"
    "0\n"
    "0\n"
    "4\n"
    "4\n"
    "3\n"
    "3\n"
    "1\n"
    "3\n"
    "0\n"
    "4\n"
    "0\n"
    "1\n"
    "0\n"
    "4\n"
    "2\n"
    "3\n"
    "1\n"
    "2\n"
    "4\n"
    "0\n", 42);
  int st = bh_runb(h, "", 0, "diff", "-u", "--label", "A", "--label", "B", "a", "b", NULL);
  assert_int_equal(st, 1);
  assert_int_equal(h->out.len, 49);
  assert_memory_equal(h->out.data, "--- A\n"
    "+++ B\n"
    "@@ -5,6 +5,7 @@\n"
    " 4\n"
    " 3\n"
    " 3\n"
    "+1\n"
    " 3\n"
    " 0\n"
    " 4\n", 49);
  assert_string_equal(bh_err(h), "");
}

static void (*const cases[])(bh *) = {c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20, c21, c22, c23, c24, c25, c26, c27, c28, c29, c30, c31, c32, c33, c34, c35, c36, c37, c38, c39, c40, c41, c42, c43, c44, c45, c46, c47, c48, c49, c50, c51, c52, c53, c54, c55, c56, c57, c58, c59, c60, c61, c62, c63, c64, c65, c66, c67, c68, c69, c70, c71, c72, c73, c74, c75, c76, c77, c78, c79};

static void t_recorded(void **st) {
  (void)st;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    bh *h = bh_new();
    cases[i](h);
    bh_free(h);
  }
}

/* Two 20,000-line files with scattered edits: the result is checked by
 * applying it back (the listing has the right size and shape). */
static void t_large(void **st) {
  (void)st;
  bh *h = bh_new();
  buf a, b;
  buf_init(&a, h->m);
  buf_init(&b, h->m);
  uint64_t x = 88172645463325252ull;
  long changed = 0;
  for (int i = 0; i < 20000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    buf_printf(&a, "line %d\n", i);
    if (x % 97 == 0) {
      buf_printf(&b, "edited %d\n", i);
      changed++;
    } else {
      buf_printf(&b, "line %d\n", i);
    }
  }
  bh_writen(h, "a", a.data, a.len);
  bh_writen(h, "b", b.data, b.len);
  assert_int_equal(bh_run(h, NULL, "diff", "a", "b", NULL), 1);
  long lt = 0, gt = 0;
  for (size_t i = 0; i < h->out.len; i++)
    if (i == 0 || h->out.data[i - 1] == '\n') {
      lt += h->out.data[i] == '<';
      gt += h->out.data[i] == '>';
    }
  assert_int_equal(lt, changed);
  assert_int_equal(gt, changed);
  buf_free(&a);
  buf_free(&b);
  bh_free(h);
}

/* A search that runs out of time ends the command, not the host. */
static void t_budget(void **st) {
  (void)st;
  bh *h = bh_new();
  buf a, b;
  buf_init(&a, h->m);
  buf_init(&b, h->m);
  uint64_t x = 1;
  for (int i = 0; i < 30000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    buf_printf(&a, "%d\n", (int)(x % 7));
    buf_printf(&b, "%d\n", (int)((x >> 20) % 7));
  }
  bh_writen(h, "a", a.data, a.len);
  bh_writen(h, "b", b.data, b.len);
  h->bud.deadline_ns = budget_now_ns(&h->bud) + 1000000; /* 1 ms */
  int s = bh_run(h, NULL, "diff", "--minimal", "a", "b", NULL);
  assert_true(s == 2 || s == 1);
  buf_free(&a);
  buf_free(&b);
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_recorded),
      cmocka_unit_test(t_large),
      cmocka_unit_test(t_budget),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
