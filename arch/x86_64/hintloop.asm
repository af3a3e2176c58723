; The common case of the hinted relocation loop on x86_64, for RELA
; tables: ldso/ext/hintloop.c's fast_run without statistics, symbol cache or
; bloom filter, making the same checks of each relocation (ldso/ext/fast.h).
; Written here because what is left per relocation is a few dozen
; instructions, and the compiler's register allocation added a third.
;
; const size_t *qb_hint_loop_arch(const size_t *r, const struct qb_hint_state *s)
; Applies relocations from r on until one needs the general path or its
; place is outside s's writable range; returns that one (or s->end).

%include "consts.inc"

section .text
global qb_hint_loop_arch:function hidden (qb_hint_loop_arch.end - qb_hint_loop_arch)

qb_hint_loop_arch:
	push rbx
	push rbp
	push r12
	push r13
	push r14
	push r15
	mov rbp, rsi
	mov r8, [rbp + QB_HS_SI]
	mov r9, [rbp + QB_HS_HINTS]
	mov r10, [rbp + QB_HS_GNU]
	mov r11, [rbp + QB_HS_TGT]
	mov rbx, [rbp + QB_HS_BASE]
	mov r12, [rbp + QB_HS_LO]
	neg r12                     ; -lo: the place's distance from lo in one lea
	mov r13, [rbp + QB_HS_SPAN]
	mov r15d, QB_HL_SYM_TYPES
	cmp rdi, [rbp + QB_HS_END]
	je .done
.loop:
	mov rax, [rdi]              ; r_offset
	mov rdx, [rdi + 8]          ; r_info
	lea rcx, [rax + r12]
	cmp rcx, r13
	ja .done                    ; the place is outside the writable range
.typed:
	cmp edx, 63
	ja .done
	bt r15, rdx                 ; bit (type) of the symbolic types
	jnc .other
	cmp rdx, [rbp + QB_HS_LIMIT]
	jae .done                   ; symbol index >= nsyms
	mov rcx, rdx
	shr rcx, 32                 ; symbol index
	mov esi, [r8 + rcx * 4]     ; its syminfo entry as a word
	sub esi, 0x10000            ; QB_DIRECT_WORD: the rest is the target's index
	cmp rsi, [rbp + QB_HS_NTGT]
	jae .done
	lea rsi, [rsi + rsi * 4]    ; the target: r11 + 8 * rsi (QB_FT_SIZE 40)
	mov edx, [r9 + rcx * 4]     ; the hint
	sub edx, [r11 + rsi * 8 + QB_FT_LO]
	cmp edx, [r11 + rsi * 8 + QB_FT_N]
	jae .done                   ; outside the target's hashed range
	mov r14, [r11 + rsi * 8 + QB_FT_CHAIN]
	mov r14d, [r14 + rdx * 4]
	xor r14d, [r10 + rcx * 4]
	cmp r14d, 1
	ja .done                    ; the hash there is another name's
	cmp edx, [r11 + rsi * 8 + QB_FT_IP0]
	je .done                    ; an interposer may take the definition
	cmp edx, [r11 + rsi * 8 + QB_FT_IP1]
	je .done
	lea rdx, [rdx + rdx * 2]    ; the definition: r14 + 8 * rdx (Elf64_Sym, 24 bytes)
	mov r14, [r11 + rsi * 8 + QB_FT_SYMS]
	cmp word [r14 + rdx * 8 + 6], 0     ; st_shndx: undefined
	je .done
	test byte [r14 + rdx * 8 + 4], 0xc  ; st_info: types 0-3 only
	jnz .done
	mov rcx, [r14 + rdx * 8 + 8]        ; st_value
	add rcx, [r11 + rsi * 8 + QB_FT_BASE]
	add rcx, [rdi + 16]         ; r_addend
	mov [rbx + rax], rcx
	add rdi, 24
	cmp rdi, [rbp + QB_HS_END]
	jne .loop
	jmp .done
.other:
	cmp edx, QB_HL_R_RELATIVE
	jne .done
.relative:                      ; and the relative ones that follow it
	mov rcx, [rdi + 16]
	add rcx, rbx
	mov [rbx + rax], rcx
	add rdi, 24
	cmp rdi, [rbp + QB_HS_END]
	je .done
	mov rax, [rdi]
	mov rdx, [rdi + 8]
	lea rcx, [rax + r12]
	cmp rcx, r13
	ja .done
	cmp rdx, QB_HL_R_RELATIVE   ; symbol 0 and the relative type
	je .relative
	jmp .typed
.done:
	mov rax, rdi
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbp
	pop rbx
	ret
.end:
