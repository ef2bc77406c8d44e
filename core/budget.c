#include "budget.h"

#include <time.h>

void budget_defaults(vsh_limits *l) {
  if (!l->max_commands)
    l->max_commands = 1000000;
  if (!l->max_loop_iterations)
    l->max_loop_iterations = 10000000;
  if (!l->max_call_depth)
    l->max_call_depth = 1000;
  if (!l->max_output_bytes)
    l->max_output_bytes = (uint64_t)64 << 20;
  if (!l->max_memory)
    l->max_memory = (uint64_t)1 << 30;
  if (!l->max_fs_bytes)
    l->max_fs_bytes = (uint64_t)1 << 30;
  if (!l->max_fs_inodes)
    l->max_fs_inodes = 1000000;
  if (!l->max_string_bytes)
    l->max_string_bytes = (uint64_t)16 << 20;
  if (!l->max_jobs)
    l->max_jobs = 1000;
}

int64_t budget_now_ns(const budget *b) {
  if (b->clock)
    return b->clock(b->clock_ud, 1);
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void budget_set_stop(budget *b, budget_stop why, uint64_t value) {
  if (b->stop == BUDGET_OK) {
    b->stop = why;
    b->stop_value = value;
  }
}

int budget_poll(budget *b) {
  if (b->stop)
    return 1;
  if ((++b->tick & 255) == 0) {
    if (b->cancel && atomic_load(b->cancel)) {
      budget_set_stop(b, BUDGET_CANCELLED, 0);
      return 1;
    }
    if (b->deadline_ns && budget_now_ns(b) >= b->deadline_ns) {
      budget_set_stop(b, BUDGET_TIMEOUT, (uint64_t)b->lim.timeout_ms);
      return 1;
    }
    if (b->m && mem_over_cap(b->m)) {
      budget_set_stop(b, BUDGET_MEMORY, b->lim.max_memory);
      return 1;
    }
  }
  return 0;
}

int budget_command(budget *b) {
  if (++b->commands > b->lim.max_commands)
    budget_set_stop(b, BUDGET_COMMANDS, b->lim.max_commands);
  return budget_poll(b);
}

int budget_loop(budget *b) {
  if (++b->loops > b->lim.max_loop_iterations)
    budget_set_stop(b, BUDGET_LOOPS, b->lim.max_loop_iterations);
  return budget_poll(b);
}

int budget_output(budget *b, uint64_t n) {
  b->output += n;
  if (b->output > b->lim.max_output_bytes)
    budget_set_stop(b, BUDGET_OUTPUT, b->lim.max_output_bytes);
  return budget_poll(b);
}

const char *budget_stop_name(budget_stop why) {
  switch (why) {
  case BUDGET_OK:
    return "none";
  case BUDGET_TIMEOUT:
    return "timeout";
  case BUDGET_CANCELLED:
    return "cancelled";
  case BUDGET_COMMANDS:
    return "commands";
  case BUDGET_LOOPS:
    return "loop iterations";
  case BUDGET_DEPTH:
    return "call depth";
  case BUDGET_OUTPUT:
    return "output bytes";
  case BUDGET_MEMORY:
    return "memory";
  case BUDGET_STRING:
    return "string length";
  case BUDGET_FS:
    return "filesystem";
  case BUDGET_JOBS:
    return "jobs";
  }
  return "unknown";
}

int budget_stop_status(budget_stop why) {
  return why == BUDGET_TIMEOUT ? 124 : 126;
}
