/* Applying an object's relocations (DT_RELR, DT_REL/DT_RELA, the PLT
 * table) once its dependencies are relocated. The architecture supplies
 * the mapping from relocation type to generic kind. */
#include <string.h>
#include <sys/mman.h>
#include "ext/ext.h"

#if QB_TLS_VARIANT != 2
#error "reloc.c computes thread-pointer offsets for TLS variant II only"
#endif

/* Resolution of reference symbols for one object's relocations. A small
 * cache keyed by symbol index makes repeated relocations against the same
 * symbol cost one lookup (every time, when linkopt grouped them). */
#define CACHE_SLOTS 64

struct resolver {
	struct dso *p;
	int lazy_ok;    /* deferring unresolved PLT slots is allowed */
	int lazy_plt;   /* the relocation being resolved is such a slot */
	int retrying;   /* a deferred slot tried again: stays in the list */
	struct qb_prepared prep;   /* what an extension prepared (ext.h) */
	size_t lo, span;           /* its writable range: [lo, lo + span] holds a word */
	size_t last, lastval;      /* CAREFUL: the last symbolic r_info and its value */
	int symcache;              /* values reused (LD_NOSYMCACHE: never) */
	size_t key[CACHE_SLOTS];
	struct symdef val[CACHE_SLOTS];
};

static void resolver_init(struct resolver *rs, struct dso *p, int lazy_ok)
{
	*rs = (struct resolver){ .p = p, .lazy_ok = lazy_ok, .last = QB_NO_INFO, .symcache = !qb.env.no_symcache };
	memset(rs->key, 0xff, sizeof rs->key);  /* no symbol index */
}

/* dlopen(RTLD_LAZY): a PLT slot whose function no object defines yet is
 * left alone and tried again when later objects join the global scope
 * (a call through it before then faults, as in musl). The list changes
 * only in ways a failed dlopen undoes: slots are added by the objects it
 * loads (forgotten with them) and removed once the dlopen cannot fail. */
struct lazy_slot {
	struct dso *p;
	size_t info, off, addend;
	unsigned char bound;  /* by the dlopen in progress: dropped when it is done */
};
static struct lazy_slot *lazy;
static size_t nlazy, caplazy;

static void defer(struct dso *p, size_t info, size_t off, size_t addend)
{
	struct lazy_slot *n = qb_grow(lazy, &caplazy, nlazy, sizeof *n);
	if (!n)
		qb_error("Error relocating %s: out of memory", p->name);
	lazy = n;
	lazy[nlazy++] = (struct lazy_slot){ p, info, off, addend, 0 };
}

static inline __attribute__((always_inline)) int resolve(struct resolver *rs, size_t symi, int copy, struct symdef *out)
{
	struct dso *p = rs->p;
	size_t slot = symi % CACHE_SLOTS;
	if (!copy && rs->key[slot] == symi) {
		qb.stats.cache_hits++;
		*out = rs->val[slot];
		return 0;
	}
	/* an extension may know the definition without reading the name */
	if (!copy && qb_ext_bind(&rs->prep, p, symi, 0, out))
		goto bound;
	Sym *ref = p->syms + symi;
	if (ST_BIND(ref->st_info) == STB_LOCAL) {
		*out = (struct symdef){ ref, p };
		return 0;
	}
	if (ref->st_name >= p->dyn.strsz)
		qb_error("Error relocating %s: bad symbol name offset", p->name);
	const char *name = p->strings + ref->st_name;
	struct qb_verreq vr;
	const struct qb_verreq *ver = qb_verreq_of(p, symi, &vr) ? &vr : 0;
	struct qb_symreq r = { .name = name, .ver = ver };
	if (!qb_prepared_hashes(&rs->prep, symi, &r))
		qb_symreq_init(&r, name, ver);
	if (copy || !qb_ext_bind(&rs->prep, p, symi, &r, out))
		*out = qb_lookup(&r, copy ? p : 0, p->reloc_root);
	if (!out->sym)
		qb_lfs64_bind(name, out);
	/* the loader binding itself is not the program's business */
	if ((qb.debug & QB_DBG_BINDINGS) && !p->is_ldso)
		qb_dbg("binding file %s to %s: symbol `%s'", p->name,
			out->sym ? out->dso->name : "<undefined>", name);
	if (!out->sym) {
		if (rs->lazy_plt)
			return 1;
		if (ST_BIND(ref->st_info) != STB_WEAK) {
			/* listed: this relocation is left as it is, and the
			 * next one against the name is reported too */
			qb_error_listed("Error relocating %s: %s: symbol not found", p->name, name);
			return 2;
		}
		out->dso = p;  /* weak undefined: value 0 */
	}
bound:
	if (out->sym && out->dso->runtime && out->dso != p)
		qb_ext_pin(p, out->dso);
	if (!copy && rs->symcache) {
		rs->key[slot] = symi;
		rs->val[slot] = *out;
	}
	return 0;
}

/* A REL relocation keeps its addend in the place it relocates; the
 * loader's own places were overwritten by stage 1, which kept them. */
static size_t rel_addend(const struct dso *p, int kind, size_t symi, size_t off, const size_t *where)
{
	if (p->is_ldso && symi)
		return qb_ldso_rel_addend(off);
#ifdef QB_REL_TLSDESC_ADDEND_WORD
	if (kind == RK_TLSDESC)
		return where[QB_REL_TLSDESC_ADDEND_WORD];
#endif
	if (kind == RK_PC32 || kind == RK_ABS32U || kind == RK_ABS32S)
		return (size_t)(long)*(const int32_t *)where;
	return *where;
}

/* What the IRELATIVE resolver at B + A returns. --list runs no code of
 * the objects it lists, not even resolvers: ldd on an untrusted file must
 * be safe. */
static void apply_irelative(struct dso *p, size_t *where, size_t addend)
{
	if (qb.list_mode)
		return;
	if (!qb_in_code(p, addend))
		qb_error("Error relocating %s: IRELATIVE resolver outside the code", p->name);
	*where = ((size_t (*)(void))(p->base + addend))();
}

/* The address a definition stands for: its own, or what its IFUNC
 * resolver returns (not in --list, for the reason above). */
static inline __attribute__((always_inline)) size_t def_value(struct dso *p, const struct symdef *def)
{
	if (!def->sym)
		return 0;
	size_t val = (size_t)def->dso->base + def->sym->st_value;
	if (ST_TYPE(def->sym->st_info) == STT_GNU_IFUNC && !qb.list_mode) {
		if (!qb_in_code(def->dso, def->sym->st_value))
			qb_error("Error relocating %s: IFUNC resolver of %s outside the code", p->name,
				def->dso->name);
		val = ((size_t (*)(void))val)();
	}
	return val;
}

/* A copy relocation: the definition's bytes, as many as both sides have. */
static __attribute__((noinline)) void apply_copy(struct dso *p, size_t symi, size_t off, const struct symdef *def, size_t val)
{
	size_t n = p->syms[symi].st_size;
	if (!def->sym || !qb_writable(p, off, n))
		qb_error("Error relocating %s: bad copy relocation", p->name);
	if (def->sym->st_size < n)
		n = def->sym->st_size;
	if (!qb_in_image(def->dso, def->sym->st_value, n))
		qb_error("Error relocating %s: copy source outside %s", p->name, def->dso->name);
	memcpy((void *)(p->base + off), (void *)val, n);
}

/* Memory the loader allocates on behalf of p (TLS descriptor arguments)
 * lives as long as p: a header links it to p->owned. */
static void *owned_alloc(struct dso *p, size_t size)
{
	void **m = qb_malloc(sizeof(void *) + size);
	if (!m)
		return 0;
	m[0] = p->owned;
	p->owned = m;
	return m + 1;
}

/* The TLS kinds: the defining module's id, an offset in its block, an
 * offset from the thread pointer (static area only) or a descriptor
 * (static, or dynamic for a module dlopen added after threads exist). */
static __attribute__((noinline)) void apply_tls(struct dso *p, int kind, size_t symi, const struct symdef *def, size_t addend,
	size_t *where)
{
	size_t symoff = (def->sym ? def->sym->st_value : 0) + addend;
	if (kind == RK_DTPMOD || kind == RK_DTPOFF) {
		*where = kind == RK_DTPMOD ? def->dso->tls_id : symoff - QB_DTP_OFFSET;
		return;
	}
	if (symi && def->sym && ST_TYPE(def->sym->st_info) != STT_TLS)
		qb_error("Error relocating %s: TLS relocation against a non-TLS symbol", p->name);
	if (!def->dso->tls.size && def->sym)
		qb_error("Error relocating %s: TLS relocation against an object without TLS", p->name);
	if (def->dso->tls_id > qb.static_tls_cnt) {
		/* Not in the static area of threads that already run. */
		if (kind != RK_TLSDESC)
			qb_error("Error relocating %s: initial-exec TLS resolves to dynamic definition in %s",
				p->name, def->dso->name);
		size_t *arg = owned_alloc(p, 2 * sizeof *arg);
		if (!arg)
			qb_error("Error relocating %s: out of memory", p->name);
		arg[0] = def->dso->tls_id;
		arg[1] = symoff - QB_DTP_OFFSET;
		where[0] = (size_t)__tlsdesc_dynamic;
		where[1] = (size_t)arg;
		return;
	}
	/* Variant II: the block starts tls.offset below the thread pointer. */
	size_t tpoff = symoff - def->dso->tls.offset;
	if (kind == RK_TPOFF)
		*where = tpoff;
#ifdef QB_TPOFF_ARCH_NAME
	else if (kind == RK_TPOFF_ARCH)
		*where = qb_arch_tpoff(def->dso->tls.offset, symoff - addend, addend);
#endif
	else {
		where[0] = (size_t)__tlsdesc_static;
		where[1] = tpoff;
	}
}

/* One relocation, in phases: check the place and find the addend; the
 * kinds without a symbol; resolve the symbol; store. Returns 1 when the
 * place was left for later (a deferred PLT slot). */
static inline __attribute__((always_inline)) int apply(struct dso *p, struct resolver *rs, size_t info, size_t off,
	size_t addend, int rela)
{
	unsigned type = QB_R_TYPE(info);
	size_t symi = QB_R_SYM(info);
	int kind = qb_rel_kind(type);
	size_t *where = (size_t *)(p->base + off);
	struct symdef def = { 0, p };

	if (kind == RK_UNKNOWN)
		qb_error("Error relocating %s: unsupported relocation type %u", p->name, type);
	if (kind == RK_NONE)
		return 0;
	/* a copy relocation's extent is its symbol's size, checked below */
	size_t wlen = kind == RK_COPY ? 0 : kind == RK_PC32 || kind == RK_ABS32U || kind == RK_ABS32S ? 4 :
		      sizeof(size_t) * (kind == RK_TLSDESC ? 2 : 1);
	if (!qb_writable(p, off, wlen))
		qb_error("Error relocating %s: relocation offset 0x%zx outside the writable segments", p->name, off);
	if (!rela && kind != RK_COPY && kind != RK_GOT && kind != RK_PLT)
		addend = rel_addend(p, kind, symi, off, where);
	qb.stats.relocs++;
	qb.stats.bykind[kind]++;
	if (kind == RK_RELATIVE) {
		if (!p->is_ldso)
			*where = (size_t)p->base + addend;
		return 0;
	}
	if (kind == RK_IRELATIVE) {
		apply_irelative(p, where, addend);
		return 0;
	}

	if (symi) {
		if (symi >= p->nsyms)
			qb_error("Error relocating %s: symbol index %zu out of range", p->name, symi);
		rs->lazy_plt = rs->lazy_ok && kind == RK_PLT && ST_BIND(p->syms[symi].st_info) != STB_WEAK;
		int missed = resolve(rs, symi, kind == RK_COPY, &def);
		if (missed == 2)
			return 0;
		if (missed) {
			if (!rs->retrying)
				defer(p, info, off, addend);
			return 1;
		}
	}
	size_t val = def_value(p, &def);

	switch (kind) {
	case RK_WORD: *where = val + addend; break;
	case RK_GOT:
	case RK_PLT: *where = val + (rela ? addend : 0); break;
	case RK_PCWORD: *where = val + addend - (size_t)where; break;
	case RK_PC32: *(uint32_t *)where = (uint32_t)(val + addend - (size_t)where); break;
	case RK_ABS32U:
	case RK_ABS32S: *(uint32_t *)where = (uint32_t)(val + addend); break;
	case RK_COPY: apply_copy(p, symi, off, &def, val); break;
	case RK_DTPMOD:
	case RK_DTPOFF:
	case RK_TPOFF:
#ifdef QB_TPOFF_ARCH_NAME
	case RK_TPOFF_ARCH:
#endif
	case RK_TLSDESC: apply_tls(p, kind, symi, &def, addend, where); break;
	default:
		qb_error("Error relocating %s: unsupported relocation type %u", p->name, type);
	}
	return 0;
}

/* A hinted mode's store: val plus RELA's addend, or for REL what the
 * place held (a word) or nothing (a GOT or PLT slot); and its count. */
static inline __attribute__((always_inline)) void put(size_t *where, size_t val, const size_t *r,
	const int rela, unsigned type)
{
	*where = val + (rela ? r[2] : QB_TYPE_MASK(QB_IS_WORD) >> type & 1 ? *where : 0);
}

/* The references a hinted mode left, from r on while they stay in its
 * range and are not bound directly, when their binder knows a plain
 * definition of a start-up object or of p without the name (a scope
 * definer: C++'s vague references come in runs), stored as the mode
 * stores. Returns the first one not bound (r itself goes to apply). */
static const size_t *bind_unnamed(struct resolver *rs, const size_t *r, const size_t *end, int rela)
{
	struct dso *p = rs->p;
	for (const size_t *first = r; r != end; r += rela ? 3 : 2) {
		size_t symi = QB_R_SYM(r[1]);
		struct symdef d;
		if (!QB_SYM_TYPE(QB_R_TYPE(r[1])) || !symi || symi >= p->nsyms || r[0] - rs->lo > rs->span ||
		    (r != first && qb_hinted_kind(&rs->prep, symi)))
			break;
		if (!qb_ext_bind(&rs->prep, p, symi, 0, &d) || !d.sym || (d.sym->st_info & 0xc) || (d.dso->runtime && d.dso != p))
			break;
		put((size_t *)(p->base + r[0]), (size_t)d.dso->base + d.sym->st_value, r, rela, QB_R_TYPE(r[1]));
		if (qb.debug & QB_DBG_STATS) {
			qb.stats.relocs++;
			qb.stats.bykind[qb_rel_kind(QB_R_TYPE(r[1]))]++;
		}
	}
	return r;
}

/* The writable range holding a word at off: 0 when none does. */
static int range_of(const struct dso *p, size_t off, size_t *lo, size_t *span)
{
	for (unsigned i = 0; i < p->nwr; i++)
		if (off >= p->wr_lo[i] && off <= p->wr_hi[i] && sizeof(size_t) <= p->wr_hi[i] - off) {
			*lo = p->wr_lo[i];
			*span = p->wr_hi[i] - *lo - sizeof(size_t);
			return 1;
		}
	return 0;
}

/* A hinted mode over relocations from r on: returns the first one it
 * leaves to the general path, or end. Nothing is called inside, so the
 * loop has every register; qb_observe reads its answers after it. */
static inline __attribute__((always_inline)) const size_t *bind_run(struct resolver *rs,
	const size_t *r, const size_t *end, const int rela, const int mode)
{
	const struct qb_prepared s = rs->prep;
	unsigned char *const base = rs->p->base;
	const size_t nsyms = rs->p->nsyms, lo = rs->lo, span = rs->span, ent = rela ? 3 : 2;
	const int cache = mode == QB_MODE_CAREFUL && rs->symcache;
	size_t last = rs->last, lastval = rs->lastval;
	for (; r != end; r += ent) {
		size_t off = r[0], info = r[1], val, *where = (size_t *)(base + off);
		unsigned type = QB_R_TYPE(info);
		if (off - lo > span)
			break;
		if (cache && info == last) {
			val = lastval;
		} else if (!QB_SYM_TYPE(type)) {
			if (info != QB_REL_INFO)
				break;
			*where = (size_t)base + (rela ? r[2] : *where);
			continue;
		} else if ((mode == QB_MODE_RECORD || QB_R_SYM(info) < nsyms) &&
			   qb_hinted_value(&s, QB_R_SYM(info), mode, &val)) {
			if (cache) {
				last = info;
				lastval = val;
			}
		} else {
			break;
		}
		put(where, val, r, rela, type);
	}
	if (cache) {
		rs->last = last;
		rs->lastval = lastval;
	}
	return r;
}

/* The engine's instances, out of line so that a hinted mode's loop
 * keeps its registers: the general mode, the hinted modes' loops. */
#define GENERAL(name, rela) static __attribute__((noinline)) void name(struct resolver *rs, \
	const size_t *r, const size_t *end) { for (; r != end; r += (rela) ? 3 : 2) \
	apply(rs->p, rs, r[1], r[0], (rela) ? r[2] : 0, rela); }
#define BIND_RUN(name, rela, mode) static __attribute__((noinline)) const size_t *name( \
	struct resolver *rs, const size_t *r, const size_t *end) { return bind_run(rs, r, end, rela, mode); }
#define BIND_RUNS(m, mode) BIND_RUN(m##_rela, 1, mode) BIND_RUN(m##_rel, 0, mode)
GENERAL(general_rela, 1)
GENERAL(general_rel, 0)
BIND_RUNS(hinted, QB_MODE_HINTED)
BIND_RUN(valued_rela, 1, QB_MODE_VALUED)
#ifdef QB_REL_ARCH  /* the architecture's assembly over REL tables (arch.h) */
#define REL_RUN(name, mode) static const size_t *name(struct resolver *rs, const size_t *r, \
	const size_t *end) { return QB_REL_ARCH(mode, &rs->prep, rs->p, rs->lo, rs->span, r, end); }
#else
#define REL_RUN(name, mode) BIND_RUN(name, 0, mode)
#endif
REL_RUN(valued_rel, QB_MODE_VALUED)
BIND_RUNS(careful, QB_MODE_CAREFUL)
BIND_RUN(record_rela, 1, QB_MODE_RECORD)
REL_RUN(record_rel, QB_MODE_RECORD)

/* The engine: a table's relocations in p's mode (the one switch from
 * mode to loop); each one a hinted mode leaves goes by the general path. */
static void apply_table(struct resolver *rs, size_t vaddr, size_t size, int rela, int mode)
{
	if (!vaddr || !size)
		return;
	size_t ent = rela ? 3 : 2;
	const size_t *r = qb_laddr(rs->p, vaddr), *end = r + size / (ent * sizeof(size_t)) * ent;
	const size_t *(*bind)(struct resolver *, const size_t *, const size_t *);
	void (*general)(struct resolver *, const size_t *, const size_t *) = rela ? general_rela : general_rel;
	switch (mode) {
	case QB_MODE_HINTED: bind = rela ? hinted_rela : hinted_rel; break;
	case QB_MODE_VALUED: bind = rela ? valued_rela : valued_rel; break;
	case QB_MODE_CAREFUL: bind = rela ? careful_rela : careful_rel; break;
	case QB_MODE_RECORD: bind = rela ? record_rela : record_rel; break;
	default: general(rs, r, end); return;
	}
	const int watched = (qb.debug & (QB_DBG_STATS | QB_DBG_BINDINGS)) || qb.env.verify;
	for (const size_t *next, *from = r;; from = r = next) {
		r = bind(rs, r, end);
		if (watched)
			qb_observe(rs->p, &rs->prep, from, r, rela, mode);
		if (r == end)
			break;
		if (r[0] - rs->lo > rs->span && range_of(rs->p, r[0], &rs->lo, &rs->span))
			next = r;  /* the next range: bound from here */
		else if ((next = bind_unnamed(rs, r, end, rela)) == r)
			general(rs, r, next += ent);
	}
}

/* Text relocations need the read-only segments writable for a while. */
static void text_writable(struct dso *p, int on)
{
	if (!(p->dyn.have & QB_HAVE_TEXTREL) && !(p->dyn.flags & DF_TEXTREL))
		return;
	size_t page = __libc.page_size;
	for (size_t i = 0; i < p->phnum; i++) {
		Phdr *ph = &p->phdr[i];
		if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W))
			continue;
		size_t start = ph->p_vaddr & -page;
		size_t end = (ph->p_vaddr + ph->p_memsz + page - 1) & -page;
		int prot = (ph->p_flags & PF_R ? PROT_READ : 0) | (ph->p_flags & PF_X ? PROT_EXEC : 0);
		mprotect(p->base + start, end - start, on ? prot | PROT_WRITE : prot);
	}
}

hidden void qb_relocate(struct dso *p, int lazy_ok)
{
	if (p->relocated)
		return;
	p->relocated = 1;
	struct resolver rs;
	resolver_init(&rs, p, lazy_ok);
	/* the answers p's loops read: the launch record's, else the tables'
	 * (ext.h); general, with every answer looked up, without them */
	int mode = qb_ext_prepare(p, &rs.prep);
	if (mode && !range_of(p, p->wr_lo[0], &rs.lo, &rs.span))
		mode = QB_MODE_GENERAL;
	text_writable(p, 1);
	/* The loader relocated itself in stage 1: only its symbolic
	 * relocations are redone, against the whole global scope. */
	if (!p->is_ldso && p->dyn.relr &&
	    qb_relr(p, p->base, qb_laddr(p, p->dyn.relr), p->dyn.relrsz / sizeof(size_t)))
		qb_error("Error relocating %s: DT_RELR address outside the image", p->name);
	/* the list mode runs no code and reports in musl's order: PLT first */
	if (qb.list_mode)
		apply_table(&rs, p->dyn.jmprel, p->dyn.pltrelsz, p->dyn.pltrel == DT_RELA, mode);
	apply_table(&rs, p->dyn.rel, p->dyn.relsz, 0, mode);
	apply_table(&rs, p->dyn.rela, p->dyn.relasz, 1, mode);
	if (!qb.list_mode)
		apply_table(&rs, p->dyn.jmprel, p->dyn.pltrelsz, p->dyn.pltrel == DT_RELA, mode);
	text_writable(p, 0);
	qb_ext_relocated(p);
}

hidden void qb_protect_relro(struct dso *p)
{
	if (p->relro_end > p->relro_start)
		mprotect(p->base + p->relro_start, p->relro_end - p->relro_start, PROT_READ);
}

static void relocate_now(void *p)
{
	qb_relocate(p, 0);
}

hidden void qb_relocate_all(void)
{
	uint64_t t0 = qb.debug & QB_DBG_STATS ? qb_now_ns() : 0;
	qb.static_tls_cnt = qb.tls_cnt;
	/* Dependencies before their users: the reverse of load order is a
	 * good approximation; the main program goes last because its copy
	 * relocations read the libraries' relocated data. The list mode
	 * runs no code and reports in musl's order, load order; after
	 * anything but a symbol not found it goes on with the next object. */
	for (struct dso *p = qb.list_mode ? qb.head : qb.tail; p; p = qb.list_mode ? p->next : p->prev)
		if (p != qb.main)
			qb_keep_going(relocate_now, p);
	qb_keep_going(relocate_now, qb.main);
	if (t0)
		qb.stats.reloc_ns += qb_now_ns() - t0;
}

/* Objects joined the global scope: retry the deferred PLT slots. The
 * place and the slot's mark are written through the dlopen's journal (the
 * binding may point into an object that a failure unloads again); the
 * slots stay in the list until qb_drop_lazy, once nothing can fail. */
hidden void qb_retry_lazy(void)
{
	for (size_t i = 0; i < nlazy; i++) {
		struct lazy_slot *s = &lazy[i];
		if (s->bound)
			continue;
		struct resolver rs;
		resolver_init(&rs, s->p, 1);
		rs.retrying = 1;
		qb_txn_save_word((size_t *)(s->p->base + s->off));
		if (!apply(s->p, &rs, s->info, s->off, s->addend, s->p->dyn.pltrel == DT_RELA))
			qb_txn_flag(&s->bound, 1);
	}
}

/* Drops p's deferred slots (it is going away), or with p == 0 the ones
 * the dlopen now done bound. */
hidden void qb_drop_lazy(const struct dso *p)
{
	size_t k = 0;
	for (size_t i = 0; i < nlazy; i++)
		if (p ? lazy[i].p != p : !lazy[i].bound)
			lazy[k++] = lazy[i];
	nlazy = k;
}
