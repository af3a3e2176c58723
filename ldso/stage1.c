/* Stage 1: the loader relocates itself. Nothing here may read a global
 * through the GOT or call into libc: neither is usable until this is done,
 * and musl's code also needs the thread pointer, which stage 2 sets. */
#include "ldso.h"

/* With REL, a relocation's addend is the word it overwrites. The loader's
 * symbolic relocations are applied again once the global scope is known
 * (qb_relocate), so their addends are kept here: no allocator yet. */
#define MAX_SAVED_ADDENDS (QB_USE_RELA ? 1 : 256)
static struct saved { size_t off, addend; } saved[MAX_SAVED_ADDENDS];
static size_t nsaved;

static void save_addend(size_t type, size_t symi, size_t off, size_t addend)
{
	int kind = qb_rel_kind(type);
	if (QB_USE_RELA || !symi || kind == RK_GOT || kind == RK_PLT || kind == RK_COPY)
		return;
	if (nsaved == MAX_SAVED_ADDENDS)
		__builtin_trap();  /* a property of the loader's own build */
	saved[nsaved++] = (struct saved){ off, addend };
}

hidden size_t qb_ldso_rel_addend(size_t off)
{
	for (size_t i = 0; i < nsaved; i++)
		if (saved[i].off == off)
			return saved[i].addend;
	return 0;
}

static void apply(unsigned char *base, const Sym *syms, size_t type,
	size_t symi, size_t *where, size_t addend)
{
	size_t s = symi && syms[symi].st_shndx ? (size_t)base + syms[symi].st_value : 0;
	switch (qb_rel_kind(type)) {
	case RK_RELATIVE: *where = (size_t)base + addend; break;
	case RK_WORD: if (s) *where = s + addend; break;
	case RK_GOT:
	case RK_PLT: if (s) *where = s; break;
	default: break;
	}
}

hidden void qb_stage1(size_t *sp, size_t *dynv)
{
	(void)sp;
	unsigned char *base = (unsigned char *)__ehdr_start;
	size_t rel = 0, relsz = 0, jmprel = 0, pltsz = 0, symtab = 0, relr = 0, relrsz = 0;

	for (size_t *d = dynv; d[0]; d += 2) {
		switch (d[0]) {
		case QB_USE_RELA ? DT_RELA : DT_REL: rel = d[1]; break;
		case QB_USE_RELA ? DT_RELASZ : DT_RELSZ: relsz = d[1]; break;
		case DT_JMPREL: jmprel = d[1]; break;
		case DT_PLTRELSZ: pltsz = d[1]; break;
		case DT_SYMTAB: symtab = d[1]; break;
		case DT_RELR: relr = d[1]; break;
		case DT_RELRSZ: relrsz = d[1]; break;
		}
	}
	const Sym *syms = (const Sym *)(base + symtab);

	qb_relr(0, base, (const size_t *)(base + relr), relrsz / sizeof(size_t));

	size_t ent = QB_USE_RELA ? 3 : 2;
	size_t *tabs[2] = { (size_t *)(base + rel), (size_t *)(base + jmprel) };
	size_t sizes[2] = { rel ? relsz : 0, jmprel ? pltsz : 0 };
	for (int t = 0; t < 2; t++) {
		size_t *r = tabs[t];
		for (size_t n = sizes[t] / (ent * sizeof(size_t)); n; n--, r += ent) {
			size_t *where = (size_t *)(base + r[0]);
			size_t addend = QB_USE_RELA ? r[2] : *where;
			save_addend(QB_R_TYPE(r[1]), QB_R_SYM(r[1]), r[0], addend);
			apply(base, syms, QB_R_TYPE(r[1]), QB_R_SYM(r[1]), where, addend);
		}
	}
}
