/*
 * list.h - every built-in command, declared once: X("name", id, flags).
 * The handler is bi_<id>; its usage line and help text are the strings
 * bi_usage_<id> and bi_help_<id>, defined beside the handler. Shell builtins
 * (cd, export, ...) are not listed: the shell resolves them first.
 * Keep the list in name order (bi_all returns it as is).
 */
