/*
 * lib.c - bc's math library (-l), written in bc.
 */
#include "builtins/data/bc/bc.h"

const char bc_mathlib[] = "scale=20\n";
