/* Context switch for x86-64 System V: callee-saved registers plus the SSE
 * control word and x87 control word, which the ABI also makes callee-saved.
 * The sanitizers are told about each switch by the callers in fiber.c
 * (AddressSanitizer's start/finish_switch_fiber, ThreadSanitizer's
 * __tsan_switch_to_fiber just before ctx_switch); ctx_switch is never
 * called from anywhere else, so no switch goes unannounced. */
#if defined(__x86_64__) && !defined(VSH_USE_UCONTEXT)
	.text
	.globl ctx_switch
	.hidden ctx_switch
	.type ctx_switch,@function
ctx_switch:
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	subq $8, %rsp
	stmxcsr (%rsp)
	fnstcw 4(%rsp)
	movq %rsp, (%rdi)
	movq %rsi, %rsp
	ldmxcsr (%rsp)
	fldcw 4(%rsp)
	addq $8, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret
	.size ctx_switch,.-ctx_switch

	.globl ctx_start
	.hidden ctx_start
	.type ctx_start,@function
ctx_start:
	movq %r12, %rdi
	subq $8, %rsp
	call fiber_entry_main
	ud2
	.size ctx_start,.-ctx_start
#endif
	.section .note.GNU-stack,"",@progbits
