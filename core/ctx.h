/* ctx.h - the raw context switch under fiber.c. */
#ifndef VSH_CORE_CTX_H
#define VSH_CORE_CTX_H

#if defined(__x86_64__) && !defined(VSH_USE_UCONTEXT)
#define VSH_CTX_ASM 1
/* Save callee-saved registers on the current stack, store the stack pointer
 * in *save, switch to the stack `to` and restore from it. */
void ctx_switch(void **save, void *to);
/* First code a new fiber runs: calls fiber_entry(r12). */
void ctx_start(void);
#else
#define VSH_CTX_ASM 0
#endif

#endif
