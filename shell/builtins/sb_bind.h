/*
 * sb_bind.h - readline's names and defaults as bind shows them
 * (sb_bind_data.c), for sb_bind.c.
 */
#ifndef VSH_SHELL_SB_BIND_H
#define VSH_SHELL_SB_BIND_H

#include <stddef.h>

typedef struct sh_rl_bind {
  const char *seq; /* readline notation: "\\C-x\\C-g" */
  const char *fn;
} sh_rl_bind;

typedef struct sh_rl_var {
  const char *name;
  const char *val;
} sh_rl_var;

extern const char *const sh_rl_funcs[]; /* NULL-terminated, bind -l order */
extern const sh_rl_bind sh_rl_emacs[];  /* {NULL, NULL}-terminated */
extern const sh_rl_var sh_rl_vars[];    /* {NULL, NULL}-terminated */
/* vi-insert (self-insert on every other byte but NUL added by sb_bind.c)
 * and vi-command, {NULL, NULL}-terminated */
extern const sh_rl_bind sh_rl_vi_insert[];
extern const sh_rl_bind sh_rl_vi_cmd[];

#endif
