; The common case of the hinted relocation loop on i386, for REL tables:
; ldso/ext/hintloop.c's fast_run without statistics, symbol cache or bloom
; filter, making the same checks of each relocation (ldso/ext/fast.h).
; Written here because what is left per relocation is a few dozen
; instructions, and with seven registers the compiler's code spent as
; many again on moving values between registers and the stack.
;
; const size_t *qb_hint_loop_arch(const size_t *r, const struct qb_hint_state *s)
; (cdecl) Applies relocations from r on until one needs the general path
; or its place is outside s's writable range; returns that one (or
; s->end).

%include "consts.inc"

section .text
global qb_hint_loop_arch:function hidden (qb_hint_loop_arch.end - qb_hint_loop_arch)
global qb_value_loop_arch:function hidden (qb_value_loop_arch.end - qb_value_loop_arch)

; For the relocation at esi (r_info in edx): its symbol index in ecx and
; its direct target in ebx, or on to .done.
%macro TARGET 0
	cmp edx, [ebp + QB_HS_LIMIT]
	jae .done                   ; symbol index >= nsyms
	mov ecx, edx
	shr ecx, 8                  ; symbol index
	mov ebx, [ebp + QB_HS_SI]
	mov ebx, [ebx + ecx * 4]    ; its syminfo entry as a word
	sub ebx, 0x10000            ; QB_DIRECT_WORD: the rest is the target's index
	cmp ebx, [ebp + QB_HS_NTGT]
	jae .done
	shl ebx, QB_FT_SHIFT
	add ebx, [ebp + QB_HS_TGT]  ; the target
%endmacro

; Stores eax (plus the addend in the place when %1) at the place edi and
; goes on with the next relocation.
%macro STORE 1
	add edi, [ebp + QB_HS_BASE] ; the place
%if %1
	add eax, [edi]              ; its addend
%endif
	mov [edi], eax
	add esi, 8
	cmp esi, [ebp + QB_HS_END]
	jne .loop
	jmp .done
%endmacro

; Binds the relocation at esi (r_offset in edi, r_info in edx, its type
; checked) and goes on with the next one. %1: 1 when the type is
; QB_HL_R_WORD, whose addend is in the place.
%macro BIND 1
	TARGET
	mov eax, [ebp + QB_HS_HINTS]
	mov eax, [eax + ecx * 4]    ; the hint
	sub eax, [ebx + QB_FT_LO]
	cmp eax, [ebx + QB_FT_N]
	jae .done                   ; outside the target's hashed range
	mov edx, [ebp + QB_HS_GNU]
	mov edx, [edx + ecx * 4]    ; the referenced name's hash
	mov ecx, [ebx + QB_FT_CHAIN]
	xor edx, [ecx + eax * 4]
	cmp edx, 1
	ja .done                    ; the hash there is another name's
	cmp eax, [ebx + QB_FT_IP0]
	je .done                    ; an interposer may take the definition
	cmp eax, [ebx + QB_FT_IP1]
	je .done
	shl eax, 4
	add eax, [ebx + QB_FT_SYMS] ; the definition (Elf32_Sym, 16 bytes)
	cmp word [eax + 14], 0      ; st_shndx: undefined
	je .done
	test byte [eax + 12], 0xc   ; st_info: types 0-3 only
	jnz .done
	mov eax, [eax + 4]          ; st_value
	add eax, [ebx + QB_FT_BASE]
	STORE %1
%endmacro

; The loop around the binding of one relocation, %1 (BIND or VBIND):
; the place's range, the type, runs of relative relocations.
%macro HINT_LOOP 1
	push ebx
	push esi
	push edi
	push ebp
	mov esi, [esp + 20]         ; r
	mov ebp, [esp + 24]         ; s
	cmp esi, [ebp + QB_HS_END]
	je .done
.loop:
	mov edi, [esi]              ; r_offset
	mov edx, [esi + 4]          ; r_info
	mov eax, edi
	sub eax, [ebp + QB_HS_LO]
	cmp eax, [ebp + QB_HS_SPAN]
	ja .done                    ; the place is outside the writable range
.typed:
	cmp dl, QB_HL_R_WORD
	je .word
	lea eax, [edx - QB_HL_R_GOT]
	cmp al, QB_HL_R_PLT - QB_HL_R_GOT
	jbe .plain                  ; GLOB_DAT, JMP_SLOT (below GLOB_DAT: a borrow)
	cmp dl, QB_HL_R_RELATIVE
	jne .done
.relative:                      ; and the relative ones that follow it
	mov eax, [ebp + QB_HS_BASE]
	add [eax + edi], eax
	add esi, 8
	cmp esi, [ebp + QB_HS_END]
	je .done
	mov edi, [esi]
	mov edx, [esi + 4]
	mov eax, edi
	sub eax, [ebp + QB_HS_LO]
	cmp eax, [ebp + QB_HS_SPAN]
	ja .done
	cmp edx, QB_HL_R_RELATIVE   ; symbol 0 and the relative type
	je .relative
	jmp .typed
.word:
	%1 1
.plain:
	%1 0
.done:
	mov eax, esi
	pop ebp
	pop edi
	pop esi
	pop ebx
	ret
%endmacro

qb_hint_loop_arch:
	HINT_LOOP BIND
.end:

; The same loop for an object whose table records the definitions'
; values (docs/FORMAT.md 2.3; hintloop.c's fast_run with VALUES): the target's symbol
; table and hash chain are not read.
; const size_t *qb_value_loop_arch(const size_t *r, const struct qb_hint_state *s)
%macro VBIND 1
	TARGET
	cmp dword [ebx + QB_FT_N], 0
	je .done                    ; not one the hints may name
	mov eax, [ebp + QB_HS_HINTS]
	mov eax, [eax + ecx * 4]    ; the hint
	sub eax, [ebx + QB_FT_LO]
	cmp eax, [ebx + QB_FT_IP0]
	je .done                    ; an interposer may take the definition
	cmp eax, [ebx + QB_FT_IP1]
	je .done
	mov eax, [ebp + QB_HS_VALUES]
	mov eax, [eax + ecx * 4]    ; the definition's value
	test eax, eax
	jz .done                    ; none recorded
	add eax, [ebx + QB_FT_BASE]
	STORE %1
%endmacro

qb_value_loop_arch:
	HINT_LOOP VBIND
.end:
