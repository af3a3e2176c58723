; Process entry of the loader on i386. The kernel jumps here with the
; initial stack (argc, argv, envp, auxv) at esp. Stage 1 relocates the
; loader, stage 2 loads and links the program and returns where to jump
; and with which stack pointer. Both are cdecl; qb_stage2 returns its
; two-word struct through a hidden pointer that it pops itself.

%include "consts.inc"

section .text
global _dlstart:function hidden
extern qb_stage1
extern qb_stage2
extern _DYNAMIC
extern _GLOBAL_OFFSET_TABLE_

_dlstart:
	xor ebp, ebp
	mov edi, esp                ; the kernel's stack: callee-saved across calls
	and esp, -QB_STACK_ALIGN
	sub esp, 2 * QB_STACK_ALIGN     ; two argument words, then the returned struct
	; No relocation has been applied yet: find _DYNAMIC from our own
	; address and the link-time distance to the GOT.
	call .here
.here:
	pop ebx
	add ebx, _GLOBAL_OFFSET_TABLE_ + $$ - .here wrt ..gotpc
	lea eax, [ebx + _DYNAMIC wrt ..gotoff]
	mov [esp], edi
	mov [esp + QB_WORD_SIZE], eax
	call qb_stage1 wrt ..plt     ; hidden: bound at link time, no PLT entry
	lea esi, [esp + QB_STACK_ALIGN]    ; struct qb_entry { entry, sp }
	mov [esp], esi
	mov [esp + QB_WORD_SIZE], edi
	call qb_stage2 wrt ..plt
	mov eax, [esi]
	mov esp, [esi + QB_WORD_SIZE]
	xor edx, edx                ; no rtld_fini for the program's _start
	jmp eax
