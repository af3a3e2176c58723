/* The shared ELF reader: see elfview.h. Every address and size below is
 * 64-bit arithmetic on values read from the object. */
#include <string.h>
#include "elfview.h"

/* The longest last chain a GNU hash table may have: more symbols than any
 * object carries, few enough that walking them stays quick. */
#define QB_MAX_GNU_CHAIN ((uint32_t)1 << 22)

static void store(struct qb_dyninfo *d, size_t tag, size_t val)
{
	switch (tag) {
	case DT_NEEDED: d->nneeded++; break;
	case DT_STRTAB: d->strtab = val; break;
	case DT_STRSZ: d->strsz = val; d->have |= QB_HAVE_STRSZ; break;
	case DT_SYMTAB: d->symtab = val; break;
	case DT_SYMENT: d->syment = val; break;
	case DT_HASH: d->hash = val; break;
	case DT_GNU_HASH: d->gnu_hash = val; break;
	case DT_RELA: d->rela = val; break;
	case DT_RELASZ: d->relasz = val; break;
	case DT_RELAENT: d->relaent = val; break;
	case DT_REL: d->rel = val; break;
	case DT_RELSZ: d->relsz = val; break;
	case DT_RELENT: d->relent = val; break;
	case DT_RELACOUNT: case DT_RELCOUNT: d->relcount = val; break;
	case DT_JMPREL: d->jmprel = val; break;
	case DT_PLTRELSZ: d->pltrelsz = val; break;
	case DT_PLTREL: d->pltrel = val; break;
	case DT_RELR: d->relr = val; break;
	case DT_RELRSZ: d->relrsz = val; break;
	case DT_RELRENT: d->relrent = val; break;
	case DT_INIT: d->init = val; d->have |= QB_HAVE_INIT; break;
	case DT_FINI: d->fini = val; d->have |= QB_HAVE_FINI; break;
	case DT_INIT_ARRAY: d->init_array = val; break;
	case DT_INIT_ARRAYSZ: d->init_arraysz = val; break;
	case DT_FINI_ARRAY: d->fini_array = val; break;
	case DT_FINI_ARRAYSZ: d->fini_arraysz = val; break;
	case DT_PREINIT_ARRAY: d->preinit_array = val; break;
	case DT_PREINIT_ARRAYSZ: d->preinit_arraysz = val; break;
	case DT_SONAME: d->soname = val; d->have |= QB_HAVE_SONAME; break;
	case DT_RPATH: d->rpath = val; d->have |= QB_HAVE_RPATH; break;
	case DT_RUNPATH: d->runpath = val; d->have |= QB_HAVE_RUNPATH; break;
	case DT_FLAGS: d->flags = val; break;
	case DT_FLAGS_1: d->flags_1 = val; break;
	case DT_TEXTREL: d->have |= QB_HAVE_TEXTREL; break;
	case DT_DEBUG: d->have |= QB_HAVE_DEBUG; break;
	case DT_VERSYM: d->versym = val; break;
	case DT_VERDEF: d->verdef = val; break;
	case DT_VERDEFNUM: d->verdefnum = val; break;
	case DT_VERNEED: d->verneed = val; break;
	case DT_VERNEEDNUM: d->verneednum = val; break;
	case DT_SYMINFO: d->syminfo = val; break;
	case DT_SYMINSZ: d->syminsz = val; d->have |= QB_HAVE_SYMINSZ; break;
	case DT_SYMINENT: d->syminent = val; break;
	case DT_QB_TABLE: d->qb_table = val; break;
	case DT_QB_TABLESZ: d->qb_tablesz = val; d->have |= QB_HAVE_QB_TABLESZ; break;
	default: break;
	}
}

int qb_decode_dynamic(const void *dynv, size_t max, int wide,
	struct qb_dyninfo *out, const char **why)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < max; i++) {
		size_t tag, val;
		/* a file buffer need not be aligned */
		if (wide) {
			const unsigned char *e = (const unsigned char *)dynv + 16 * i;
			tag = (size_t)qb_rd64(e);
			val = (size_t)qb_rd64(e + 8);
		} else {
			const unsigned char *e = (const unsigned char *)dynv + 8 * i;
			tag = qb_rd32(e);
			val = qb_rd32(e + 4);
		}
		if (tag == DT_NULL) {
			out->ndyn = i;
			goto check;
		}
		store(out, tag, val);
	}
	*why = "dynamic section is not terminated";
	return -1;
check:
	if (!out->strtab || !out->symtab) {
		*why = "dynamic section lacks DT_STRTAB or DT_SYMTAB";
		return -1;
	}
	if (out->syment && out->syment != (wide ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym))) {
		*why = "unsupported DT_SYMENT";
		return -1;
	}
	if ((out->rela && out->relaent && out->relaent != (wide ? 24u : 12u)) ||
	    (out->rel && out->relent && out->relent != (wide ? 16u : 8u))) {
		*why = "unsupported relocation entry size";
		return -1;
	}
	if (out->pltrelsz && out->pltrel != DT_RELA && out->pltrel != DT_REL) {
		*why = "bad DT_PLTREL";
		return -1;
	}
	if (((out->have & QB_HAVE_SONAME) && out->soname >= out->strsz) ||
	    ((out->have & QB_HAVE_RPATH) && out->rpath >= out->strsz) ||
	    ((out->have & QB_HAVE_RUNPATH) && out->runpath >= out->strsz)) {
		*why = "string offset outside the string table";
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------- hash tables -- */

static const void *at(const struct qb_elfview *v, uint64_t addr, uint64_t len)
{
	/* no table wraps around the address space */
	if (addr + len < addr)
		return 0;
	return v->at(v, addr, len);
}

static const char *sysv_info(const struct qb_elfview *v, uint64_t hash, struct qb_hashinfo *out)
{
	const unsigned char *h = at(v, hash, 8);
	if (!h)
		return "DT_HASH outside the object";
	uint32_t nb = qb_rd32(h), nc = qb_rd32(h + 4);
	if (!nb || !at(v, hash, 8 + 4 * ((uint64_t)nb + nc)))
		return "corrupt DT_HASH";
	out->sysv_nbucket = nb;
	out->sysv_nchain = nc;
	out->sysv_size = 8 + 4 * ((uint64_t)nb + nc);
	return 0;
}

/* The chains end where the one of the highest bucket does: the first
 * entry from there with the low bit set is the last symbol. The symbols
 * are sorted by bucket, so the highest bucket is the last one not empty;
 * a table that breaks the rule (full: every bucket is asked) can only
 * count fewer symbols than it has, and every reader of a bucket checks
 * it against symoffset and the count. */
static const char *gnu_info(const struct qb_elfview *v, uint64_t gh, struct qb_hashinfo *out,
	uint64_t *nsyms, int full)
{
	const unsigned char *h = at(v, gh, 16);
	if (!h)
		return "DT_GNU_HASH outside the object";
	uint32_t nb = qb_rd32(h), symoff = qb_rd32(h + 4), nbloom = qb_rd32(h + 8);
	uint64_t word = v->wide ? 8 : 4;
	uint64_t buckets = gh + 16 + (uint64_t)nbloom * word;
	uint64_t chains = buckets + 4 * (uint64_t)nb;
	if (!nb || !nbloom || (nbloom & (nbloom - 1)))
		return "corrupt DT_GNU_HASH";
	const unsigned char *b = at(v, gh, chains - gh);
	if (!b)
		return "corrupt DT_GNU_HASH";
	b += buckets - gh;
	uint32_t last = 0;
	for (uint32_t i = nb; i-- > 0 && (full || !last);) {
		uint32_t s = qb_rd32(b + 4 * (uint64_t)i);
		if (s && s < symoff)
			return "corrupt DT_GNU_HASH";
		if (s > last)
			last = s;
	}
	uint64_t n = symoff;
	if (last) {
		/* The last chain ends the table; a chain without its end bit
		 * would be walked through a whole bss of zeros, a page-table
		 * walk apiece: no object has that many symbols. */
		for (uint32_t steps = 0;; steps++) {
			const unsigned char *c = at(v, chains + 4 * (uint64_t)(last - symoff), 4);
			if (!c || steps == QB_MAX_GNU_CHAIN)
				return "corrupt DT_GNU_HASH chain";
			if (qb_rd32(c) & 1)
				break;
			if (++last == 0)
				return "corrupt DT_GNU_HASH chain";
		}
		n = (uint64_t)last + 1;
	}
	out->gnu_nbuckets = nb;
	out->gnu_symoffset = symoff;
	out->gnu_bloomwords = nbloom;
	/* The bloom test shifts a 32-bit hash by it: 32 or more is no
	 * filter any linker writes, and undefined in C. */
	if (qb_rd32(h + 12) >= 32)
		return "corrupt DT_GNU_HASH bloom shift";
	out->gnu_shift = qb_rd32(h + 12);
	out->gnu_bloom = gh + 16;
	out->gnu_buckets = buckets;
	out->gnu_chains = chains;
	out->gnu_size = chains - gh + 4 * (n - symoff);
	*nsyms = n;
	return 0;
}

const char *qb_hashinfo(const struct qb_elfview *v, uint64_t hash, uint64_t gnu_hash,
	struct qb_hashinfo *out)
{
	const char *why;
	uint64_t n = 0;
	memset(out, 0, sizeof *out);
	if (!hash && !gnu_hash)
		return "no DT_HASH or DT_GNU_HASH";
	if (hash && (why = sysv_info(v, hash, out)))
		return why;
	if (gnu_hash && (why = gnu_info(v, gnu_hash, out, &n, 0)))
		return why;
	/* DT_HASH counting more symbols than the chains hold: the chains are
	 * then read to the end of each, as the count bounds every walk */
	if (gnu_hash && out->sysv_nchain > n && (why = gnu_info(v, gnu_hash, out, &n, 1)))
		return why;
	out->nsyms = n > out->sysv_nchain ? n : out->sysv_nchain;
	return 0;
}

/* ------------------------------------------------------ symbol versions -- */

/* One version index per entry at most: a longer chain loops. */
#define MAX_VERSIONS 0x8000

const char *qb_each_verdef(const struct qb_elfview *v, uint64_t addr, uint64_t num,
	int (*fn)(void *arg, const struct qb_verdef_rec *d), void *arg)
{
	for (uint64_t k = 0; k < num && k < MAX_VERSIONS; k++) {
		const unsigned char *d = at(v, addr, sizeof(Elf64_Verdef));
		if (!d)
			return "version definitions outside the object";
		/* Elf32_Verdef and Elf64_Verdef are the same */
		Elf64_Verdef vd;
		memcpy(&vd, d, sizeof vd);
		const unsigned char *a = at(v, addr + vd.vd_aux, sizeof(Elf64_Verdaux));
		if (!a)
			return "version definitions outside the object";
		struct qb_verdef_rec r = {
			.ndx = vd.vd_ndx, .flags = vd.vd_flags, .cnt = vd.vd_cnt,
			.hash = vd.vd_hash, .name = qb_rd32(a),
		};
		int go = fn(arg, &r);
		if (go < 0)
			return "bad version definition";
		if (go || !vd.vd_next)
			break;
		addr += vd.vd_next;
	}
	return 0;
}

const char *qb_each_vernaux(const struct qb_elfview *v, uint64_t addr, uint64_t num,
	int (*fn)(void *arg, const struct qb_vernaux_rec *n), void *arg)
{
	for (uint64_t k = 0; k < num && k < MAX_VERSIONS; k++) {
		const unsigned char *d = at(v, addr, sizeof(Elf64_Verneed));
		if (!d)
			return "version requirements outside the object";
		Elf64_Verneed vn;
		memcpy(&vn, d, sizeof vn);
		uint64_t aaddr = addr + vn.vn_aux;
		for (unsigned j = 0; j < vn.vn_cnt; j++) {
			const unsigned char *a = at(v, aaddr, sizeof(Elf64_Vernaux));
			if (!a)
				return "version requirements outside the object";
			Elf64_Vernaux va;
			memcpy(&va, a, sizeof va);
			struct qb_vernaux_rec r = {
				.other = va.vna_other, .flags = va.vna_flags, .hash = va.vna_hash,
				.name = va.vna_name, .file = vn.vn_file,
			};
			int go = fn(arg, &r);
			if (go < 0)
				return "bad version requirement";
			if (go)
				return 0;
			if (!va.vna_next)
				break;
			aaddr += va.vna_next;
		}
		if (!vn.vn_next)
			break;
		addr += vn.vn_next;
	}
	return 0;
}

int qb_version_match(uint16_t vs, int has_versym, const struct qb_verdef_ent *def,
	const struct qb_verreq *req)
{
	if (!has_versym)
		return 1;
	unsigned idx = vs & 0x7fff;
	if (idx == VER_NDX_LOCAL)
		return 0;
	if (!req) {
		/* An unversioned reference binds to the default version only:
		 * hidden (non-default) versions never satisfy it. */
		return !(vs & 0x8000);
	}
	if (def && !def->base && def->hash == req->hash && !strcmp(def->name, req->name))
		return 1;
	/* A versioned reference may still bind to an unversioned (global base)
	 * definition, as long as neither side is hidden. */
	if (idx == VER_NDX_GLOBAL || (def && def->base))
		return !(vs & 0x8000) && !req->is_hidden;
	return 0;
}
