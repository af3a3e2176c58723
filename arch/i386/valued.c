/* The valued mode over a REL table on i386 (ldso/reloc.c): its loop in
 * assembly (valuedloop.asm), given the mode's state laid out as consts.h
 * says. */
#include <stddef.h>
#include "ext.h"
#include "consts.h"

struct qb_valued_state {
	const size_t *end;
	size_t lo, span;     /* the writable range: [lo, lo + span] holds a word */
	size_t limit, ntgt;  /* r_info of symbol index nsyms (type 0); targets */
	const Syminfo *si;
	const uint32_t *hints;
	const struct qb_hint_tgt *tgt;
	unsigned char *base;
	const uint32_t *values;
};

#define AT(t, f, off) (offsetof(struct t, f) == (off))
_Static_assert(sizeof(struct qb_hint_tgt) == QB_FT_SIZE && AT(qb_hint_tgt, base, QB_FT_BASE) &&
	AT(qb_hint_tgt, lo, QB_FT_LO) && AT(qb_hint_tgt, n, QB_FT_N) &&
	AT(qb_hint_tgt, ip_def[0], QB_FT_IP0) && AT(qb_hint_tgt, ip_def[1], QB_FT_IP1),
	"struct qb_hint_tgt is not laid out as consts.h says");
_Static_assert(AT(qb_valued_state, end, QB_HS_END) && AT(qb_valued_state, lo, QB_HS_LO) &&
	AT(qb_valued_state, span, QB_HS_SPAN) && AT(qb_valued_state, limit, QB_HS_LIMIT) &&
	AT(qb_valued_state, ntgt, QB_HS_NTGT) && AT(qb_valued_state, si, QB_HS_SI) &&
	AT(qb_valued_state, hints, QB_HS_HINTS) && AT(qb_valued_state, tgt, QB_HS_TGT) &&
	AT(qb_valued_state, base, QB_HS_BASE) && AT(qb_valued_state, values, QB_HS_VALUES),
	"struct qb_valued_state is not laid out as consts.h says");
_Static_assert(QB_HL_R_WORD == R_386_32 && QB_HL_R_GOT == R_386_GLOB_DAT &&
	QB_HL_R_PLT == R_386_JMP_SLOT && QB_HL_R_RELATIVE == R_386_RELATIVE,
	"valuedloop.asm binds other types than consts.h says");

hidden const size_t *qb_valued_loop_arch(const size_t *r, const struct qb_valued_state *s);

hidden const size_t *qb_valued_rel_arch(const struct qb_prepared *s, const struct dso *p, size_t lo,
	size_t span, const size_t *r, const size_t *end)
{
	const struct qb_valued_state st = { end, lo, span,
		/* every index below 2^24 fits r_info */
		p->nsyms >> 24 ? (size_t)-1 : p->nsyms << 8, s->ntgt, s->si, s->hints, s->tgt, p->base,
		s->values };
	return qb_valued_loop_arch(r, &st);
}
