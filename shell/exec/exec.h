/*
 * exec.h - the execution stage: shell processes and their life cycle, the
 * read-parse-execute loop, simple commands, pipelines, subshells and jobs,
 * redirections, [[ ]], traps. The top of the shell: calls every stage below
 * and the command table of builtins/; fills in sh_exec_ops for them.
 */
#ifndef VSH_SHELL_EXEC_H
#define VSH_SHELL_EXEC_H

#include "shell/sh.h"

int sh_exec_simple(sh_exec *ex, sh_node *n);
int sh_exec_pipeline(sh_exec *ex, sh_node *n);
int sh_exec_subshell(sh_exec *ex, sh_node *n);
int sh_exec_bg(sh_exec *ex, sh_node *n);
int sh_wait_job(sh_exec *ex, int pid, int *found);
void sh_after_command(sh_exec *ex, int status);
void sh_xtrace_prefix(sh_exec *ex, buf *b);
int sh_assign_one(sh_exec *ex, sh_assign *a, unsigned flags, buf *trace);
/* Run an expanded simple command. no_funcs 1: functions are not looked up
 * (a builtin's command); 2: also a missing command returns BI_NOT_FOUND
 * unreported, for the tool that asked to word it (run_argv). */
int sh_dispatch(sh_exec *ex, int argc, char **argv, int no_funcs);
int sh_call_function(sh_exec *ex, sh_func *f, int argc, char **argv);
int sh_run_script_file(sh_exec *ex, const char *path, const char *data,
                       size_t len, int argc, char **argv);
/* Process substitutions (procsub.c): those started since mark are closed
 * (and a >(...) that has nobody else writing to it waited for) when the
 * command that expanded them is done. */
size_t sh_procsub_mark(sh_exec *ex);
void sh_procsub_finish(sh_exec *ex, size_t mark);
int sh_procsub(sh_exec *ex, sh_node *body, int dir, stream *src, char *path,
               size_t n);
/* A flat child for a job (own arena), and starting it as a fiber: listed
 * jobs enter the job table, others are only waited for by `wait`. */
sh_exec *sh_job_child(sh_exec *ex);
sh_job *sh_job_spawn(sh_exec *ex, sh_exec *c, sh_node *n, int listed);
/* A fresh top-level shell for run r, from "K=V" env lists. */
sh_exec *sh_new_root(sh_run *r, const char *cwd, const char *const *base,
                     const char *const *extra, int replace);
/* A child process (subshell, $(...), stage): O(1) overlay on ex. flat: copy
 * everything (background jobs, which run while the parent goes on). */
sh_exec *sh_child(sh_exec *ex, int flat);
void sh_free(sh_exec *ex);
sh_base *sh_base_new(mem *m, const vsh_limits *lim, const char *cwd,
                     const char *const *env);
void sh_base_free(mem *m, sh_base *b);
/* b was built for this cwd. */
int sh_base_fits(const sh_base *b, const char *cwd);
/* No exec changed a base variable in place (see exec_run.c). */
int sh_base_intact(const sh_base *b);
/* Like sh_new_root(r, cwd, env, NULL, 0) for b's env, in O(1) (two
 * variables more when cwd is not the one b was built for). */
sh_exec *sh_new_root_over(sh_run *r, sh_base *b, const char *cwd);
/* A zeroed sh_exec (free it with mem_free, as sh_free does). */
sh_exec *sh_exec_new(mem *m);
/* Re-target a session's shell at a new run. */
void sh_rebind(sh_exec *ex, sh_run *r);
void sh_run_release_kept(sh_run *r);
/* Run a script text: parse command by command and execute. */
int sh_run_script(sh_exec *ex, const char *src, size_t len, int first_line);
/* Run one node; returns its status (also ex->status). */
int sh_exec_node(sh_exec *ex, sh_node *n);
/* Run the EXIT trap if set (once). */
void sh_run_exit_trap(sh_exec *ex);
int sh_run_trap(sh_exec *ex, int which);
/* The DEBUG trap before a command at line (exec.c). */
void sh_debug_trap(sh_exec *ex, int line);
/* Run argv as a simple command with the given streams. */
int sh_run_argv(sh_exec *ex, int argc, char **argv, stream *in, stream *out,
                stream *err, int no_funcs);
/* Command substitution: run body with stdout captured into out. */
int sh_cmdsub(sh_exec *ex, sh_node *body, buf *out);
/* `bash ARGS...` / `sh ARGS...` run as a command (exec_shell.c). */
int sh_run_child_shell(sh_exec *ex, int argc, char **argv);
/* A child shell process as `bash` starts one (exported variables only,
 * one level deeper), and its end (EXIT trap, status, freed). NULL: out of
 * memory or the depth limit (then ex->jump is J_ABORT). */
sh_exec *sh_child_shell_new(sh_exec *ex);
/* Would bash refuse to run this file text as a script ("cannot execute
 * binary file")? */
int sh_binary_text(const char *data, size_t len);
/* A fresh process image for a command run with exactly the environment env
 * ("K=V", NULL-terminated) in directory cwd (NULL: the shell's), as env(1)
 * runs one: no functions, no shell variables; end it with
 * sh_child_shell_finish. */
sh_exec *sh_env_child_new(sh_exec *ex, char **env, const char *cwd);
int sh_child_shell_finish(sh_exec *ex, sh_exec *c, int st);
/* $0, BASH_SOURCE and the positional parameters of a script file. */
void sh_child_script_names(sh_exec *c, const char *path, int argc, char **argv);
/* A root shell runs the text of the script file path (messages say
 * "path: line N:", as bash running a file; $0 is set apart). */
void sh_root_script_file(sh_exec *ex, const char *path);
/* The shell reads commands from a person (vsh's prompt): a syntax error
 * does not end it, $- holds i. The prompt keeps the history itself. */
void sh_set_interactive(sh_exec *ex);
void sh_wait_jobs(sh_exec *ex, int pid);
int sh_source_file(sh_exec *ex, const char *path, int argc, char **argv);
int sh_eval_string(sh_exec *ex, const char *src, size_t len, const char *what);
int sh_arith_word(sh_exec *ex, sh_word *w, int64_t *out);
int sh_exec_cond(sh_exec *ex, sh_cond *c);
int sh_regex_match(sh_exec *ex, const char *s, size_t slen, const char *re,
                   size_t relen, int nocase, int *err);
/* Apply a redirection list; saved fds go into *save (arena) so that
 * sh_redir_restore undoes them, except the fds {var}>file allocates, which
 * bash leaves open. perm: SH_REDIR_PERM (exec's permanent form), or
 * SH_REDIR_CHILD for a command bash would run in a child process (one
 * without a word, or a program that is not a builtin): {var} is then not
 * assigned and its fd is undone too. Returns 0 or 1 after printing the
 * error. */
#define SH_REDIR_PERM 1
#define SH_REDIR_CHILD 2
int sh_redir_apply(sh_exec *ex, sh_redir *r, sh_redir_save **save,
                   size_t *nsave, int perm);
void sh_redir_restore(sh_exec *ex, sh_redir_save *save, size_t nsave);
/* bi_ctx for a builtin call from the shell. */
void sh_fill_bi_ctx(sh_exec *ex, bi_ctx *c, int argc, char **argv);

extern const sh_ops sh_exec_ops; /* exec_run.c */

#endif
