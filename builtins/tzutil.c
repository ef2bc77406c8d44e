/* tzutil.c - the script's time zone (see tzutil.h). */
#include "builtins/tzutil.h"

#include <string.h>

const tz_zone *bi_tz_open(bi_ctx *c) {
  const char *v = c->getenv ? c->getenv(c, "TZ") : NULL;
  if (!v || !c->environ)
    return tz_utc();
  /* Set; the zone counts only when exported, which only the environment
   * the command would be given tells. */
  char **env = c->environ(c);
  for (size_t i = 0; env && env[i]; i++)
    if (!strncmp(env[i], "TZ=", 3))
      return tz_open(env[i] + 3);
  return tz_utc();
}
