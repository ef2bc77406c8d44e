/* Context switch for x86-64 System V: callee-saved registers plus the SSE
 * control word and x87 control word, which the ABI also makes callee-saved. */
#if defined(__x86_64__) && !defined(VSH_USE_UCONTEXT)
	.text
	.globl vsh_ctx_switch
	.hidden vsh_ctx_switch
	.type vsh_ctx_switch,@function
vsh_ctx_switch:
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
	.size vsh_ctx_switch,.-vsh_ctx_switch

	.globl vsh_ctx_start
	.hidden vsh_ctx_start
	.type vsh_ctx_start,@function
vsh_ctx_start:
	movq %r12, %rdi
	subq $8, %rsp
	call fiber_entry_main
	ud2
	.size vsh_ctx_start,.-vsh_ctx_start
#endif
	.section .note.GNU-stack,"",@progbits
