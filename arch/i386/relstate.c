/* The valued and record modes over a REL table on i386 (ldso/reloc.c):
 * their loops in assembly (relloops.asm), given each mode's state laid
 * out as consts.h says. */
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

struct qb_record_state {
	const size_t *end;
	size_t lo, span;
	size_t count, nbases;          /* the answered symbols; the record's objects */
	const struct qb_launch_ans *ans;
	const size_t *bases;
	size_t pad;
	unsigned char *base;
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
_Static_assert(AT(qb_record_state, end, QB_HS_END) && AT(qb_record_state, lo, QB_HS_LO) &&
	AT(qb_record_state, span, QB_HS_SPAN) && AT(qb_record_state, count, QB_RS_COUNT) &&
	AT(qb_record_state, nbases, QB_RS_NBASES) && AT(qb_record_state, ans, QB_RS_ANS) &&
	AT(qb_record_state, bases, QB_RS_BASES) && AT(qb_record_state, base, QB_HS_BASE) &&
	sizeof(struct qb_launch_ans) == 8 && QB_LAUNCH_NONE == 0xffffffff,
	"struct qb_record_state is not laid out as consts.h says");
_Static_assert(QB_HL_R_WORD == R_386_32 && QB_HL_R_GOT == R_386_GLOB_DAT &&
	QB_HL_R_PLT == R_386_JMP_SLOT && QB_HL_R_RELATIVE == R_386_RELATIVE,
	"relloops.asm binds other types than consts.h says");

hidden const size_t *qb_valued_loop_arch(const size_t *r, const struct qb_valued_state *s);
hidden const size_t *qb_record_loop_arch(const size_t *r, const struct qb_record_state *s);

hidden const size_t *qb_rel_arch(int mode, const struct qb_prepared *s, const struct dso *p, size_t lo,
	size_t span, const size_t *r, const size_t *end)
{
	if (mode == QB_MODE_RECORD) {
		const struct qb_record_state rt = { end, lo, span, s->acount, s->nbases, s->ans, s->bases, 0,
			p->base };
		return qb_record_loop_arch(r, &rt);
	}
	const struct qb_valued_state st = { end, lo, span,
		/* every index below 2^24 fits r_info */
		p->nsyms >> 24 ? (size_t)-1 : p->nsyms << 8, s->ntgt, s->si, s->hints, s->tgt, p->base,
		s->values };
	return qb_valued_loop_arch(r, &st);
}
