/*
 * tzutil.h - the script's time zone, for the commands that show or read
 * local time (date, touch, ls, stat, find, printf's %(...)T).
 */
#ifndef VSH_BUILTINS_TZUTIL_H
#define VSH_BUILTINS_TZUTIL_H

#include "builtins/builtin.h"
#include "core/tz.h"

/* The zone named by the script's exported TZ (as a command run by bash
 * sees it: a TZ that is set but not exported does not count); UTC when
 * there is none. Release with tz_close. */
const tz_zone *bi_tz_open(bi_ctx *c);

#endif
