/* linkopt --check: are a file's tables still right for the libraries now
 * installed? The quickbind table and its hashes against the symbol table,
 * the needed libraries' identities, and every direct binding against a
 * fresh bind_compute; a stale file gives LO_STALE. Changes nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "appview.h"
#include "launch.h"
#include "elfhash.h"
#include "linkopt.h"
#include "qbtable.h"
#include "tables.h"

static const char *needed_name(const struct elf *e, uint16_t bt)
{
	if (bt < e->ndyn && e->dyn[bt].d_tag == DT_NEEDED) {
		const char *n = elf_dynstr(e, e->dyn[bt].d_un.d_val);
		if (n)
			return n;
	}
	return "?";
}

static const char *reason(uint16_t fl)
{
	if (fl & QB_SYMINFO_VAGUE) return "vague";
	if (fl & QB_SYMINFO_MULTI) return "defined in more than one library";
	if (fl & QB_SYMINFO_NODIRECT) return "no-direct";
	return "not found in any needed library";
}

int check_file(const char *path, const struct opts *o)
{
	struct elf e;
	if (elf_load_file(&e, path) < 0) {
		int r = report(path, "%s", e.err);
		elf_free(&e);
		return r;
	}
	if (!e.syminfo_off || !e.qbt_off) {
		/* A library replaced by a fresh build (a package update in an
		 * image) has none: it needs linkopt again, like stale tables. */
		elf_free(&e);
		printf("%s: stale: no linkopt tables (run linkopt on it)\n", path);
		return LO_STALE;
	}
	int stale = 0;
	if (((uintptr_t)(e.buf + e.qbt_off) & 3) || !qb_table_valid(e.buf + e.qbt_off, e.qbt_size, e.nsyms)) {
		printf("%s: stale: quickbind table does not match the symbol table\n", path);
		stale = 1;
	} else {
		const uint32_t *gh = qb_table_gnu(e.buf + e.qbt_off), *sh = qb_table_sysv(e.buf + e.qbt_off);
		for (uint32_t i = 1; i < e.nsyms; i++) {
			const char *n = elf_sym_name(&e, i);
			if ((gh && gh[i] != qb_gnu_hash(n)) || (sh && sh[i] != qb_sysv_hash(n))) {
				printf("%s: stale: wrong precomputed hash for %s\n", path, n);
				stale = 1;
			}
		}
	}
	if (e.syminfo_size / 4 < e.nsyms) {
		printf("%s: stale: DT_SYMINFO has %llu entries for %u symbols\n", path,
		       (unsigned long long)(e.syminfo_size / 4), e.nsyms);
		elf_free(&e);
		return LO_STALE;
	}
	struct closure c;
	char err[512];
	if (closure_build(&e, &o->so, &c, err, sizeof err) < 0) {
		printf("%s: stale: %s\n", path, err);
		closure_free(&c);
		elf_free(&e);
		return LO_STALE;
	}
	struct syminfo *si = calloc(e.nsyms ? e.nsyms : 1, sizeof *si);
	if (!si || bind_compute(&c, &o->bo, si, NULL, NULL) < 0) {
		free(si);
		closure_free(&c);
		elf_free(&e);
		return report(path, "out of memory");
	}
	unsigned nstale = 0;
	/* Definition hints hold only for the libraries linkopt saw. */
	uint32_t nn = 0;
	const struct qb_needed_id *nd = stale ? NULL : qb_table_needed(e.buf + e.qbt_off, &nn);
	for (uint32_t k = 0; nd && k < nn; k++) {
		uint32_t di = rd32((const uint8_t *)&nd[k].dynidx);
		uint64_t want = (uint64_t)rd32((const uint8_t *)&nd[k].id[1]) << 32 | rd32((const uint8_t *)&nd[k].id[0]);
		for (unsigned l = 1; l < c.n; l++)
			if (c.libs[l].dynidx >= 0 && (uint32_t)c.libs[l].dynidx == di &&
			    lib_symtab_id(&c.libs[l]) != want) {
				printf("%s: stale: %s changed since linkopt ran: its definition hints are unused\n",
				       path, needed_name(&e, (uint16_t)di));
				nstale++;
			}
	}
	for (uint32_t i = 1; i < e.nsyms; i++) {
		uint16_t bt = rd16(e.buf + e.syminfo_off + 4ull * i), fl = rd16(e.buf + e.syminfo_off + 4ull * i + 2);
		if (!(fl & SYMINFO_FLG_DIRECT))
			continue;
		if ((si[i].flags & SYMINFO_FLG_DIRECT) && si[i].boundto == bt)
			continue;
		const char *name = elf_sym_name(&e, i);
		if (si[i].flags & SYMINFO_FLG_DIRECT)
			printf("%s: stale: %s bound to %s, now defined by %s\n", path, name,
			       needed_name(&e, bt), needed_name(&e, si[i].boundto));
		else
			printf("%s: stale: %s bound to %s, now %s\n", path, name, needed_name(&e, bt),
			       reason(si[i].flags));
		nstale++;
	}
	/* the record, when nothing else says the load changed: a library
	 * further down, or the loader */
	if (!stale && !nstale)
		nstale += (unsigned)launch_check(&e, &c, &o->so, path);
	if (nstale)
		stale = 1;
	else if (!stale && o->verbose)
		printf("%s: tables consistent with the installed libraries\n", path);
	free(si);
	closure_free(&c);
	elf_free(&e);
	return stale ? LO_STALE : LO_OK;
}
