; The valued and record modes of the relocation engine (ldso/reloc.c,
; bind_run with QB_MODE_VALUED and QB_MODE_RECORD) over a REL table, on
; i386: the same checks of each relocation as qb_hinted_value
; (ldso/ext/ext.h). Written here because, with seven registers, the
; compiler's code spends as many instructions again moving the mode's
; state between registers and the stack.
;
; const size_t *qb_valued_loop_arch(const size_t *r, const struct qb_valued_state *s)
; const size_t *qb_record_loop_arch(const size_t *r, const struct qb_record_state *s)
; (cdecl, the layouts of arch/i386/relstate.c) Apply relocations from r
; on until one needs the general path or its place is outside s's
; writable range; return that one (or s->end).

%include "consts.inc"

section .text
global qb_valued_loop_arch:function hidden (qb_valued_loop_arch.end - qb_valued_loop_arch)
global qb_record_loop_arch:function hidden (qb_record_loop_arch.end - qb_record_loop_arch)

; For the relocation at esi (r_info in edx): its symbol index in ecx and
; its direct target in ebx; on to %1 when it is not bound directly or its
; index is out of range.
%macro TARGET 1
	cmp edx, [ebp + QB_HS_LIMIT]
	jae %1                      ; symbol index >= nsyms
	mov ecx, edx
	shr ecx, 8                  ; symbol index
	mov ebx, [ebp + QB_HS_SI]
	mov ebx, [ebx + ecx * 4]    ; its syminfo entry as a word
	sub ebx, 0x10000            ; QB_DIRECT_WORD: the rest is the target's index
	cmp ebx, [ebp + QB_HS_NTGT]
	jae %1
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

; Binds the relocation at esi by the value linkopt recorded (nothing of
; the target is read), and goes on with the next one. %1: 1 when the type
; is QB_HL_R_WORD, whose addend is in the place.
%macro VBIND 1
	TARGET .done
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

; Binds the relocation at esi by its answer in the launch record (the
; definer's base plus the value, or 0 for a name nothing defines), and
; goes on with the next one; on to .done when the record leaves it to the
; lookup. %1 as for VBIND.
%macro RBIND 1
	mov ecx, edx
	shr ecx, 8                  ; symbol index
	cmp ecx, [ebp + QB_RS_COUNT]
	jae .done                   ; past the answered symbols
	mov ebx, [ebp + QB_RS_ANS]
	lea ebx, [ebx + ecx * 8]    ; its answer
	mov eax, [ebx]
	sub eax, 1                  ; the definer's index
	cmp eax, [ebp + QB_RS_NBASES]
	jae %%none
	mov ecx, [ebp + QB_RS_BASES]
	mov eax, [ecx + eax * 4]    ; the definer's base
	add eax, [ebx + 4]          ; and the definition's value
	STORE %1
%%none:
	cmp eax, 0xfffffffe         ; QB_LAUNCH_NONE, less one
	jne .done                   ; QB_LAUNCH_ASK: the lookup's
	xor eax, eax
	STORE %1
%endmacro

; The loop around the binding of one relocation, %1:
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

qb_valued_loop_arch:
	HINT_LOOP VBIND
.end:

qb_record_loop_arch:
	HINT_LOOP RBIND
.end:
