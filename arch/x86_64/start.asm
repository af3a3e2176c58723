; Process entry of the loader. The kernel jumps here with the initial stack
; (argc, argv, envp, auxv) at rsp. Stage 1 relocates the loader, stage 2
; loads and links the program and returns where to jump and with which
; stack pointer (it moves the stack when the loader was run as a command).

%include "consts.inc"

default rel
section .text
global _dlstart:function hidden
extern qb_stage1
extern qb_stage2
extern _DYNAMIC

_dlstart:
	xor ebp, ebp
	mov r12, rsp                ; the kernel's stack: callee-saved across calls
	and rsp, -QB_STACK_ALIGN
	mov rdi, r12
	lea rsi, [_DYNAMIC]
	call qb_stage1 wrt ..plt     ; resolved locally: hidden symbol, no PLT
	mov rdi, r12
	call qb_stage2 wrt ..plt
	; rax = program entry, rdx = stack pointer to hand over
	mov rsp, rdx
	xor edx, edx                ; no rtld_fini for the program's _start
	jmp rax
