/* Optimizing one file, linkopt's default mode: its closure, the new
 * .dynsym order, the bindings and the grouped relocations, the tables
 * (.dynstr in symbol order among them), the new image, staged for the end
 * of the run. struct work carries the file through these phases
 * (optimize_file). */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "appview.h"
#include "launch.h"
#include "dynsort.h"
#include "dynstr.h"
#include "layout.h"
#include "linkopt.h"
#include "objcache.h"
#include "output.h"
#include "qbtable.h"
#include "relsort.h"
#include "startread.h"
#include "tables.h"

int lo_files_written;

/* One file through the phases of an optimization. */
struct work {
	const char *path;       /* as named by the user, for messages */
	char real[PATH_MAX];    /* the file itself (symbolic links followed) */
	struct stat st;
	struct elf e;
	uint8_t *orig;
	size_t orig_size;
	struct closure c;
	/* new hash tables and .dynsym order */
	uint32_t dflags;
	uint64_t oldgnu, oldsysv;
	uint8_t *gnub, *sysvb;
	size_t gnulen, sysvlen;
	/* bindings */
	struct syminfo *si;
	uint32_t *hints, *definers, nneeded;
	struct needed_id *needed;
	long moved;
	/* tables */
	uint8_t *qbt, *sib, *strb, *rec;
	size_t qlen, slen, strlen_, rlen;
	/* the new file */
	uint8_t *out;
	size_t olen;
};

static int load_input(struct work *w, const char *path, const struct opts *o)
{
	w->path = path;
	/* a symbolic link stays one: the file it names is what is optimized */
	if (!realpath(path, w->real) || stat(w->real, &w->st) < 0)
		return report(path, "cannot stat: %m");
	if (!o->out && !lo_all_names_known(&w->st))
		return report(path, "has %lu hard links; replacing it would split them (optimize a copy instead)",
			      (unsigned long)w->st.st_nlink);
	/* a file already written in this run is read as it will be */
	if (lo_load_elf(&w->e, w->real) < 0)
		return report(path, "%s", w->e.err);
	if (w->e.dyn_ph < 0)
		return report(path, "not dynamically linked (no PT_DYNAMIC)");
	w->orig = malloc(w->e.size ? w->e.size : 1);
	if (!w->orig)
		return report(path, "out of memory");
	memcpy(w->orig, w->e.buf, w->e.size);
	w->orig_size = w->e.size;
	char err[512];
	if (closure_build(&w->e, &o->so, &w->c, err, sizeof err) < 0)
		return report(path, "%s", err);
	return LO_OK;
}

/* dynsym order: bucket order for a SysV-only file; -O1 rebuilds the hash
 * tables larger (adding .gnu.hash) and orders for them. */
static int reorder_symbols(struct work *w, const struct opts *o)
{
	struct elf *e = &w->e;
	w->oldgnu = e->gnuhash_size;
	w->oldsysv = sysv_hash_size(e);
	if (!(o->level >= 1 || (o->sort && e->hash_off && !e->gnuhash_off)))
		return LO_OK;
	int gnu = o->level >= 1;
	uint32_t symoff, nb = gnu ? 0 : rd32(e->buf + e->hash_off);
	struct gnu_params gp;
	if (gnu) {
		/* bucket count depends on the number of hashed symbols */
		uint32_t *tmp = dynsort_order(e, 1, 1, &symoff);
		free(tmp);
		gp = gnu_params_o1(e, symoff);
		nb = gp.nbuckets;
	}
	uint32_t *order = dynsort_order(e, gnu, nb, &symoff);
	if (!order || dynsort_apply(e, order) < 0) {
		free(order);
		return report(w->path, "out of memory");
	}
	free(order);
	if (gnu)
		w->gnub = gnu_hash_build(e, &gp, &w->gnulen);
	if (e->hash_off)
		w->sysvb = sysv_hash_build(e, gnu ? prime_at_least(e->nsyms) : nb, &w->sysvlen);
	w->dflags = QB_TF_DYNSORTED;
	return LO_OK;
}

/* The scope definitions as the table holds them (docs/FORMAT.md 2.4):
 * one needed[] entry per definer, definer[i] naming it, hint[i] the
 * definition's index there. */
static void record_definers(struct work *w, const struct scope_def *sd)
{
	uint32_t first = w->nneeded, any = 0;
	for (uint32_t i = 1; i < w->e.nsyms; i++) {
		if (!sd[i].sym)
			continue;
		any = 1;
		uint32_t k = first;
		while (k < w->nneeded && w->needed[k].id != sd[i].id)
			k++;
		if (k == w->nneeded)
			w->needed[w->nneeded++] = (struct needed_id){ QB_NEEDED_SCOPE, sd[i].id };
		w->definers[i] = k + 1;
		w->hints[i] = sd[i].sym;
	}
	if (!any) {  /* no array, no flag */
		free(w->definers);
		w->definers = NULL;
	}
}

/* Bindings are per symbol index: only after the order is final. */
static int bind_symbols(struct work *w, const struct opts *o)
{
	struct elf *e = &w->e;
	size_t n = e->nsyms ? e->nsyms : 1;
	w->si = calloc(n, sizeof *w->si);
	w->hints = calloc(n, sizeof *w->hints);
	w->definers = calloc(n, sizeof *w->definers);
	/* the DT_NEEDED libraries, then the scope's definers: the object
	 * and libraries of its closure */
	w->needed = calloc(2 * (size_t)w->c.n + 1, sizeof *w->needed);
	struct scope_def *sd = calloc(n, sizeof *sd);
	if (!w->si || !w->hints || !w->definers || !w->needed || !sd ||
	    bind_compute(&w->c, &o->bo, w->si, w->hints, sd) < 0) {
		free(sd);
		return report(w->path, "out of memory");
	}
	for (unsigned k = 1; k < w->c.n; k++)
		if (w->c.libs[k].dynidx >= 0)
			w->needed[w->nneeded++] = (struct needed_id){ (uint32_t)w->c.libs[k].dynidx,
				lib_symtab_id(&w->c.libs[k]) };
	record_definers(w, sd);
	free(sd);
	if (o->sort && (w->moved = rel_sort(e)) < 0)
		return report(w->path, "out of memory");
	return LO_OK;
}

/* What each hinted definition's st_value is in the library linkopt
 * bound it in (docs/FORMAT.md, section 2.3): for a definition the
 * loader's hinted loop binds (defined, a plain type, a value that fits 32
 * bits), else 0. Only references bound to a DT_NEEDED entry have one. */
static uint32_t *hint_values(const struct work *w)
{
	const struct elf *e = &w->e;
	uint32_t *v = calloc(e->nsyms ? e->nsyms : 1, sizeof *v);
	/* the library of each boundto value: the first with that index */
	const struct elf **by = calloc(UINT16_MAX + 1u, sizeof *by);
	if (!v || !by) {
		free(v);
		free(by);
		return NULL;
	}
	for (unsigned k = w->c.n; k-- > 1;)
		if (w->c.libs[k].dynidx >= 0 && w->c.libs[k].dynidx <= UINT16_MAX)
			by[w->c.libs[k].dynidx] = &w->c.libs[k].e;
	for (uint32_t i = 1; i < e->nsyms; i++) {
		if (!w->hints[i] || !(w->si[i].flags & SYMINFO_FLG_DIRECT))
			continue;
		const struct elf *t = by[w->si[i].boundto];
		if (!t || w->hints[i] >= t->nsyms)
			continue;
		Elf64_Sym d;
		elf_sym_get(t, w->hints[i], &d);
		if (d.st_shndx != SHN_UNDEF && !(d.st_info & 0xc) && d.st_value && d.st_value <= UINT32_MAX)
			v[i] = (uint32_t)d.st_value;
	}
	free(by);
	return v;
}

/* The relocations that name a symbol linkopt did not bind directly:
 * the loader's standard lookup (or a scope definer) decides each, which
 * tells it whether its global table pays (docs/FORMAT.md 2.4). */
struct std_count {
	const struct work *w;
	uint64_t n;
};

static void count_std(void *arg, const struct rel *r)
{
	struct std_count *c = arg;
	c->n += r->sym && r->sym < c->w->e.nsyms && !(c->w->si[r->sym].flags & SYMINFO_FLG_DIRECT);
}

static uint32_t std_relocs(const struct work *w)
{
	struct std_count c = { w, 0 };
	elf_each_rel(&w->e, count_std, &c);
	return c.n > UINT32_MAX ? UINT32_MAX : (uint32_t)c.n;
}

/* Of those, the ones whose symbol has a scope definer: their lookups
 * walk only up to it (docs/FORMAT.md 2.3). */
static void count_scoped(void *arg, const struct rel *r)
{
	struct std_count *c = arg;
	c->n += r->sym && r->sym < c->w->e.nsyms && !(c->w->si[r->sym].flags & SYMINFO_FLG_DIRECT) &&
		c->w->definers[r->sym];
}

static uint32_t scoped_relocs(const struct work *w)
{
	struct std_count c = { w, 0 };
	elf_each_rel(&w->e, count_scoped, &c);
	return c.n > UINT32_MAX ? UINT32_MAX : (uint32_t)c.n;
}

static int build_tables(struct work *w, const struct opts *o)
{
	struct elf *e = &w->e;
	uint32_t flags = w->dflags | QB_TF_DIRECT | (e->rel_size && rel_grouped(e) ? QB_TF_RELSORTED : 0);
	/* SysV values serve lookups in objects that have only DT_HASH: this
	 * one (for its own chains) or one it needs. */
	int sysv = !e->gnuhash_off && !w->gnub;
	for (unsigned k = 1; k < w->c.n && !sysv; k++)
		sysv = !w->c.libs[k].e.gnuhash_off;
	if (sysv)
		flags |= QB_TF_SYSVHASH;
	/* the loader then need not read DT_SYMINFO to know (FORMAT.md 2) */
	uint32_t noext = 0;
	for (uint32_t i = 1; i < e->nsyms; i++)
		noext |= w->si[i].flags & SYMINFO_FLG_NOEXTDIRECT;
	if (!noext)
		flags |= QB_TF_NOEXTNONE;
	uint32_t *values = hint_values(w);
	if (!values)
		return report(w->path, "out of memory");
	w->qbt = qbt_build_hints(e, flags, w->hints, values, w->definers, w->needed, w->nneeded, &w->qlen);
	free(values);
	if (w->qbt && w->qlen >= QB_TABLE_HDR4_SIZE) {
		wr32(w->qbt + offsetof(struct qb_table_hdr, std_relocs), std_relocs(w));
		if (w->definers) {
			uint32_t f = rd32(w->qbt + offsetof(struct qb_table_hdr, flags));
			wr32(w->qbt + offsetof(struct qb_table_hdr, flags), f | QB_TF_SCOPECOUNT);
			wr32(w->qbt + offsetof(struct qb_table_hdr, scoped_relocs), scoped_relocs(w));
		}
	}
	/* a program's launch record, last in the table: one the kernel
	 * starts through its loader */
	if (w->qbt && appview_is_program(e) && e->interp && w->c.n > 1 &&
	    qbt_add_launch(&w->qbt, &w->qlen, &w->c, &o->so) < 0)
		return report(w->path, "out of memory");
	w->sib = syminfo_build(w->si, e->nsyms, &w->slen);
	/* a program's loader can then ask for every library's start-up
	 * reads before it maps the first */
	if (appview_is_program(e) && w->c.n > 1 && !(w->rec = closure_record(&w->c, w->si, o->so.root, o->pages, &w->rlen)))
		return report(w->path, "out of memory");
	if (!w->qbt || !w->sib)
		return report(w->path, "out of memory");
	/* last: from here on symbol names are read through the new table.
	 * Linkers merge string suffixes, so the ordered table is often larger:
	 * only -O1 pays for a new copy, otherwise it must fit in place. */
	if (o->sort && dynstr_sort(e, o->level >= 1, &w->strb, &w->strlen_) != 0) {
		free(w->strb);
		w->strb = NULL;
	}
	return LO_OK;
}

/* The new file image, with its identity covering the symbol table as
 * finally written. */
static int lay_out(struct work *w)
{
	struct elf *e = &w->e;
	struct blob b[6] = {
		{ .secname = ".SUNW_syminfo", .shtype = SHT_SUNW_syminfo, .entsize = 4, .align = 4,
		  .ptag = DT_SYMINFO, .stag = DT_SYMINSZ, .link_dynsym = 1, .info_dynamic = 1,
		  .data = w->sib, .len = w->slen },
		{ .secname = ".qb.table", .shtype = SHT_PROGBITS, .entsize = 0, .align = 8,
		  .ptag = DT_QB_TABLE, .stag = DT_QB_TABLESZ, .data = w->qbt, .len = w->qlen },
	};
	unsigned nb = 2;
	if (w->rec)
		b[nb++] = (struct blob){ .secname = ".qb.closure", .shtype = SHT_PROGBITS, .align = 4,
					 .ptag = DT_QB_CLOSURE, .stag = DT_QB_CLOSURESZ, .data = w->rec, .len = w->rlen };
	if (w->sysvb)
		b[nb++] = (struct blob){ .secname = ".hash", .shtype = SHT_HASH, .entsize = 4, .align = e->is64 ? 8 : 4,
					 .ptag = DT_HASH, .link_dynsym = 1, .data = w->sysvb, .len = w->sysvlen,
					 .cursize = w->oldsysv };
	if (w->strb)
		b[nb++] = (struct blob){ .secname = ".dynstr", .shtype = SHT_STRTAB, .align = 1,
					 .ptag = DT_STRTAB, .stag = DT_STRSZ, .data = w->strb, .len = w->strlen_ };
	if (w->gnub)
		b[nb++] = (struct blob){ .secname = ".gnu.hash", .shtype = SHT_GNU_HASH, .entsize = e->is64 ? 0 : 4,
					 .align = e->is64 ? 8 : 4, .ptag = DT_GNU_HASH, .link_dynsym = 1,
					 .data = w->gnub, .len = w->gnulen, .cursize = w->oldgnu };
	struct fixed_tag ft[] = { { DT_SYMINENT, 4 } };
	if (layout_apply(e, b, nb, ft, 1, &w->out, &w->olen) < 0)
		return report(w->path, "%s", e->err);
	struct elf fin;
	uint8_t *fbuf = malloc(w->olen ? w->olen : 1);
	if (!fbuf)
		return report(w->path, "out of memory");
	memcpy(fbuf, w->out, w->olen);
	int rc = LO_OK;
	if (elf_parse(&fin, w->path, fbuf, w->olen) < 0 || qbt_set_self_id(&fin) < 0 || qbt_set_table_id(&fin) < 0)
		rc = report(w->path, "cannot re-read the optimized file: %s", fin.err);
	else
		memcpy(w->out, fin.buf, w->olen);
	elf_free(&fin);
	return rc;
}

/* Staged, not yet written: main replaces the inputs when every file of the
 * run succeeded. */
static int emit(struct work *w, const struct opts *o)
{
	char err[512], outreal[PATH_MAX];
	if (!o->out && w->olen == w->orig_size && !memcmp(w->out, w->orig, w->olen))
		return LO_OK; /* already optimized: leave the file alone */
	const char *dst = o->out ? (realpath(o->out, outreal) ? outreal : o->out) : w->real;
	struct stat old;
	int had_old = stat(dst, &old) == 0;
	if (lo_stage(dst, w->real, &w->st, w->out, w->olen, err, sizeof err) < 0)
		return report(o->out ? o->out : w->path, "%s", err);
	/* the version of dst read so far is not what the run leaves */
	if (had_old)
		objcache_forget(old.st_dev, old.st_ino);
	lo_files_written++;
	return LO_OK;
}

static void summary(const struct work *w, const struct opts *o)
{
	unsigned n[6] = { 0 };
	for (uint32_t i = 1; i < w->e.nsyms; i++) {
		const struct syminfo *s = &w->si[i];
		if (s->flags & SYMINFO_FLG_DIRECT) n[0]++;
		else if (s->boundto == SYMINFO_BT_SELF) n[1]++;
		else if (s->flags & QB_SYMINFO_VAGUE) n[2]++;
		else if (s->flags & QB_SYMINFO_MULTI) n[3]++;
		else if (s->flags & QB_SYMINFO_NODIRECT) n[4]++;
		else n[5]++;
	}
	printf("%s: %u symbols: %u direct, %u defined, %u vague, %u multi, %u nodirect, %u not found; "
	       "%ld relocations moved; %zu -> %zu bytes\n",
	       o->out ? o->out : w->path, w->e.nsyms, n[0], n[1], n[2], n[3], n[4], n[5], w->moved,
	       w->orig_size, w->olen);
}

static void work_free(struct work *w)
{
	closure_free(&w->c);
	free(w->si);
	free(w->hints);
	free(w->definers);
	free(w->needed);
	free(w->qbt);
	free(w->rec);
	free(w->sib);
	free(w->gnub);
	free(w->sysvb);
	free(w->strb);
	free(w->out);
	free(w->orig);
	elf_free(&w->e);
}

int optimize_file(const char *path, const struct opts *o)
{
	struct work *w = calloc(1, sizeof *w);
	if (!w)
		return report(path, "out of memory");
	int rc = load_input(w, path, o);
	if (rc == LO_OK)
		rc = reorder_symbols(w, o);
	if (rc == LO_OK)
		rc = bind_symbols(w, o);
	if (rc == LO_OK)
		rc = build_tables(w, o);
	if (rc == LO_OK)
		rc = lay_out(w);
	if (rc == LO_OK)
		rc = emit(w, o);
	if (rc == LO_OK && o->verbose)
		summary(w, o);
	work_free(w);
	free(w);
	return rc;
}
