/*
 * list.h - every built-in command, declared once: X("name", id, flags).
 * The handler is bi_<id>; its usage line and help text are the strings
 * bi_usage_<id> and bi_help_<id>, defined beside the handler. Shell builtins
 * (cd, export, ...) are not listed: the shell resolves them first.
 * Keep the list in name order (bi_all returns it as is).
 */
X("[", lbracket, 0)
X("basename", basename, 0)
X("cat", cat, 0)
X("chmod", chmod, 0)
X("cp", cp, 0)
#ifdef VSH_HAVE_NET
X("curl", curl, BI_NET)
#endif
X("cut", cut, 0)
X("dirname", dirname, 0)
X("echo", echo, 0)
X("egrep", egrep, 0)
X("env", env, 0)
X("false", false, 0)
X("fgrep", fgrep, 0)
X("find", find, 0)
X("grep", grep, 0)
X("head", head, 0)
X("ln", ln, 0)
X("ls", ls, 0)
X("mkdir", mkdir, 0)
X("mv", mv, 0)
X("printenv", printenv, 0)
X("printf", printf, 0)
X("readlink", readlink, 0)
X("realpath", realpath, 0)
X("rm", rm, 0)
X("rmdir", rmdir, 0)
X("seq", seq, 0)
X("sort", sort, 0)
X("stat", stat, 0)
X("tail", tail, 0)
X("tee", tee, 0)
X("test", test, 0)
X("touch", touch, 0)
X("tr", tr, 0)
X("true", true, 0)
X("uniq", uniq, 0)
X("wc", wc, 0)
X("xargs", xargs, 0)
X("yes", yes, 0)
