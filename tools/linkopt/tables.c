/* The byte images of the tables linkopt writes (tables.h): the quickbind
 * table (hashes, hints, values, definers, identities; a program's launch
 * record is launch.c's), the DT_SYMINFO array, and a program's closure
 * record with the ranges of each library start-up reads. */
#include "tables.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coldnames.h"
#include "elfhash.h"
#include "libsearch.h"
#include "pagesfile.h"
#include "qbtable.h"
#include "startread.h"

uint8_t *qbt_build(const struct elf *e, uint32_t flags, size_t *len)
{
	return qbt_build_hints(e, flags | QB_TF_SYSVHASH, NULL, NULL, NULL, NULL, 0, len);
}

uint8_t *qbt_build_hints(const struct elf *e, uint32_t flags, const uint32_t *hints,
	const uint32_t *values, const uint32_t *definers, const struct needed_id *needed, uint32_t nneeded,
	size_t *len)
{
	struct qb_table_hdr h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, QB_TABLE_MAGIC, 4);
	h.version = QB_TABLE_VERSION;
	h.hdr_size = sizeof h;
	int sysv = !!(flags & QB_TF_SYSVHASH);
	h.flags = flags | QB_TF_GNUHASH;
	h.nsyms = e->nsyms;
	h.gnu_off = sizeof h;
	h.sysv_off = sysv ? sizeof h + 4 * e->nsyms : 0;
	*len = sizeof h + (sysv ? 8ull : 4ull) * e->nsyms;
	if (hints) {
		h.flags |= QB_TF_HINTS | QB_TF_SELFID;
		h.hint_off = *len;
		h.needed_off = *len + 4ull * e->nsyms;
		h.nneeded = nneeded;
		*len += 4ull * e->nsyms + sizeof(struct qb_needed_id) * nneeded;
		if (values) {
			h.flags |= QB_TF_VALUES;
			h.value_off = *len;
			*len += 4ull * e->nsyms;
		}
		if (definers) {
			h.flags |= QB_TF_SCOPE;
			h.definer_off = *len;
			*len += 4ull * e->nsyms;
		}
	}
	/* self_id is filled in once the file's final bytes are known */
	h.self_id[0] = 1;
	uint8_t *b = calloc(1, *len);
	if (!b)
		return NULL;
	memcpy(b, &h, sizeof h);
	for (uint32_t i = 1; i < e->nsyms; i++) {
		const char *n = elf_sym_name(e, i);
		wr32(b + h.gnu_off + 4 * i, qb_gnu_hash(n));
		if (sysv)
			wr32(b + h.sysv_off + 4 * i, qb_sysv_hash(n));
		if (hints)
			wr32(b + h.hint_off + 4 * i, hints[i]);
		if (hints && values)
			wr32(b + h.value_off + 4 * i, values[i]);
		if (hints && definers)
			wr32(b + h.definer_off + 4 * i, definers[i]);
	}
	for (uint32_t k = 0; k < nneeded; k++) {
		uint8_t *p = b + h.needed_off + sizeof(struct qb_needed_id) * k;
		wr32(p, needed[k].dynidx);
		wr32(p + 8, (uint32_t)needed[k].id);
		wr32(p + 12, (uint32_t)(needed[k].id >> 32));
	}
	return b;
}


int qbt_set_self_id(struct elf *e)
{
	if (!e->qbt_off || e->qbt_size < QB_TABLE_HDR2_SIZE)
		return -1;
	uint64_t id = elf_symtab_id(e);
	uint8_t *h = e->buf + e->qbt_off;
	wr32(h + offsetof(struct qb_table_hdr, self_id), (uint32_t)id);
	wr32(h + offsetof(struct qb_table_hdr, self_id) + 4, (uint32_t)(id >> 32));
	return 0;
}

int qbt_set_table_id(struct elf *e)
{
	if (!e->qbt_off || e->qbt_size < QB_TABLE_HDR5_SIZE)
		return -1;
	uint8_t *h = e->buf + e->qbt_off;
	uint64_t id = qb_table_compute_id(h, e->qbt_size);
	wr32(h + offsetof(struct qb_table_hdr, table_id), (uint32_t)id);
	wr32(h + offsetof(struct qb_table_hdr, table_id) + 4, (uint32_t)(id >> 32));
	return 0;
}

int loader_itself(const struct lib *lib)
{
	const char *base = strrchr(lib->path, '/');
	base = base ? base + 1 : lib->path;
	return (lib->shortname && qb_search_reserved(lib->shortname)) || !strncmp(base, "ld-musl-", 8) ||
	       !strncmp(base, "libc.musl-", 10);
}

uint8_t *syminfo_build(const struct syminfo *si, uint32_t nsyms, size_t *len)
{
	*len = 4ull * nsyms;
	uint8_t *b = calloc(1, *len ? *len : 1);
	if (!b)
		return NULL;
	for (uint32_t i = 1; i < nsyms; i++) {
		wr16(b + 4 * i, si[i].boundto);
		wr16(b + 4 * i + 2, si[i].flags);
	}
	return b;
}

int rel_grouped(const struct elf *e)
{
	size_t re = elf_relent(e, e->rel_isrela);
	uint32_t n = e->nsyms, prev = 0;
	unsigned char *seen = calloc(n ? n : 1, 1);
	int ok = 1;
	if (!seen)
		return 0;
	for (uint64_t k = 0; k + re <= e->rel_size; k += re) {
		struct rel r;
		elf_rel_get(e, e->rel_off + k, e->rel_isrela, &r);
		if (!r.sym)
			continue;
		if (r.sym != prev && seen[r.sym]) {
			ok = 0;
			break;
		}
		seen[r.sym] = 1;
		prev = r.sym;
	}
	free(seen);
	return ok;
}

/* The path the loader will open for lib: the image's own path under
 * --root (in_root resolved its links inside the image); else the file's
 * real path, which holds from any working directory, written from
 * $ORIGIN when it lies under the program's directory, so that the record
 * moves with an application installed as one tree. */
static int record_path(const struct lib *lib, const char *root, const char *origin, char *out, size_t len)
{
	size_t rl = root ? strlen(root) : 0;
	if (rl && !strncmp(lib->path, root, rl) && lib->path[rl] == '/')
		return (size_t)snprintf(out, len, "%s", lib->path + rl) < len ? 0 : -1;
	if (rl)
		return -1;
	char real[PATH_MAX];
	if (!realpath(lib->path, real))
		return -1;
	size_t ol = origin ? strlen(origin) : 0;
	if (ol && !strncmp(real, origin, ol) && real[ol] == '/')
		return (size_t)snprintf(out, len, "$ORIGIN%s", real + ol) < len ? 0 : -1;
	return (size_t)snprintf(out, len, "%s", real) < len ? 0 : -1;
}


/* What loading l reads whatever the run: its ELF and program headers and
 * its dynamic section. */
static size_t loading_reads(const struct lib *l, struct qb_range *must)
{
	size_t n = 0;
	must[n++] = (struct qb_range){ 0, l->e.eh.e_phoff + (uint64_t)l->e.phnum * l->e.eh.e_phentsize };
	for (unsigned i = 0; i < l->e.phnum; i++)
		if (l->e.ph[i].p_type == PT_DYNAMIC)
			must[n++] = (struct qb_range){ l->e.ph[i].p_offset, l->e.ph[i].p_filesz };
	return n;
}

/* The ranges of library l: the pages a recorded run read of it, or else
 * the rule's (qb_start_ranges) less the names start-up does not read. */
static size_t lib_ranges(const struct lib *l, const struct pagesfile *pf, const struct coldnames *cn,
	struct qb_range *r)
{
	size_t np;
	const struct qb_range *pr = pagesfile_find(pf, l->path, &np);
	if (np) {
		struct qb_range must[2];
		return pagesfile_ranges(pr, np, must, loading_reads(l, must), l->e.size, r, PAGES_MAX_RANGES);
	}
	struct qb_seg seg[64];
	unsigned ns = 0;
	for (unsigned i = 0; i < l->e.phnum && ns < 64; i++)
		seg[ns++] = (struct qb_seg){ l->e.ph[i].p_type, l->e.ph[i].p_offset, l->e.ph[i].p_filesz };
	return coldnames_cut(cn, &l->e, r, qb_start_ranges(seg, ns, r), QB_START_RANGES);
}

uint8_t *closure_record(const struct closure *c, const struct syminfo *self_si, const char *root,
	const struct pagesfile *pf, size_t *len)
{
	struct qb_closure_hdr h = { .magic = QB_CLOSURE_MAGIC };
	unsigned n = c->n > 1 ? c->n - 1 : 0;
	struct qb_closure_lib *lib = calloc(n ? n : 1, sizeof *lib);
	size_t per = pf ? PAGES_MAX_RANGES : QB_START_RANGES;
	struct qb_closure_range *rg = calloc(n ? n * per : 1, sizeof *rg);
	char *paths = calloc(1, n * (size_t)PATH_MAX + 4);
	struct coldnames *cn = coldnames_new(c, self_si);
	uint8_t *b = NULL;
	if (!lib || !rg || !paths)
		goto out;
	char origin[PATH_MAX], *slash;
	if (!c->n || !realpath(c->libs[0].path, origin) || !(slash = strrchr(origin, '/')))
		origin[0] = 0;
	else
		*slash = 0;
	for (unsigned k = 1; k < c->n; k++) {
		const struct lib *l = &c->libs[k];
		char path[PATH_MAX];
		if (loader_itself(l) || l->e.size > UINT32_MAX || record_path(l, root, origin, path, sizeof path) < 0)
			continue;
		struct qb_range r[PAGES_MAX_RANGES];
		size_t nr = lib_ranges(l, pf, cn, r);
		struct qb_closure_lib *e = &lib[h.nlibs++];
		e->path = h.strsz;
		e->first = h.nranges;
		e->n = (uint32_t)nr;
		e->size[0] = (uint32_t)l->e.size;
		for (size_t i = 0; i < nr; i++)
			rg[h.nranges++] = (struct qb_closure_range){ (uint32_t)r[i].off, (uint32_t)r[i].len };
		memcpy(paths + h.strsz, path, strlen(path) + 1);
		h.strsz += (uint32_t)strlen(path) + 1;
	}
	/* the paths' area ends 4-byte aligned, as the next table may start there */
	h.strsz = (h.strsz + 3) & ~3u;
	if (!h.strsz)
		h.strsz = 4;
	*len = sizeof h + h.nlibs * sizeof *lib + h.nranges * sizeof *rg + h.strsz;
	if (!(b = calloc(1, *len)))
		goto out;
	uint8_t *o = b;
	memcpy(o, &h, sizeof h), o += sizeof h;
	for (uint32_t i = 0; i < h.nlibs; i++) {
		const uint32_t f[6] = { lib[i].path, lib[i].first, lib[i].n, 0, lib[i].size[0], 0 };
		for (int j = 0; j < 6; j++)
			wr32(o + 4 * j, f[j]);
		o += sizeof *lib;
	}
	for (uint32_t i = 0; i < h.nranges; i++, o += 8) {
		wr32(o, rg[i].off);
		wr32(o + 4, rg[i].len);
	}
	memcpy(o, paths, h.strsz);
	wr32(b + 4, h.nlibs);
	wr32(b + 8, h.nranges);
	wr32(b + 12, h.strsz);
out:
	free(lib), free(rg), free(paths);
	coldnames_free(cn);
	return b;
}
