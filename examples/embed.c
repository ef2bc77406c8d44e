/* Create a sandbox holding one file, count its words with a pipeline, and
 * print what the script wrote. Build: cc embed.c $(pkg-config --cflags
 * --libs vsh) */
#include <stdio.h>
#include <vsh.h>

int main(void) {
  const char fruit[] = "pear\napple\nfig\napple\npear\napple\n";
  vsh_file_init files[] = {{"/home/user/fruit.txt", fruit, sizeof fruit - 1, 0644}};
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.files = files;
  cfg.nfiles = 1;
  vsh_sandbox *sb;
  if (vsh_open(&cfg, &sb) != VSH_OK)
    return 1;
  vsh_result res;
  if (vsh_exec(sb, "sort fruit.txt | uniq -c | sort -rn", NULL,
               &res) != VSH_OK) {
    fprintf(stderr, "exec failed: %s\n", vsh_errmsg(sb));
    return 1;
  }
  fwrite(res.out, 1, res.out_len, stdout);
  int status = res.status;
  vsh_result_free(&res);
  vsh_close(sb);
  return status;
}
