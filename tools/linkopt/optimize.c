#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dynsort.h"
#include "dynstr.h"
#include "layout.h"
#include "linkopt.h"
#include "output.h"
#include "qbtable.h"
#include "relsort.h"
#include "tables.h"

int lo_files_written;

int optimize_file(const char *path, const struct opts *o)
{
	struct elf e;
	struct stat st;
	/* a symbolic link stays one: the file it names is what is optimized */
	char real[PATH_MAX], outreal[PATH_MAX];
	if (!realpath(path, real) || stat(real, &st) < 0)
		return report(path, "cannot stat: %m");
	if (!o->out && st.st_nlink > 1)
		return report(path, "has %lu hard links; replacing it would split them (optimize a copy instead)",
			      (unsigned long)st.st_nlink);
	if (elf_load_file(&e, real) < 0) {
		int r = report(path, "%s", e.err);
		elf_free(&e);
		return r;
	}
	if (e.dyn_ph < 0) {
		elf_free(&e);
		return report(path, "not dynamically linked (no PT_DYNAMIC)");
	}
	uint8_t *orig = malloc(e.size ? e.size : 1);
	if (!orig) {
		elf_free(&e);
		return report(path, "out of memory");
	}
	memcpy(orig, e.buf, e.size);
	size_t orig_size = e.size;

	int rc = LO_ERR;
	struct closure c;
	char err[512];
	struct syminfo *si = NULL;
	uint8_t *qbt = NULL, *sib = NULL, *out = NULL;
	size_t qlen, slen, olen;
	uint32_t dflags = 0;
	uint8_t *gnub = NULL, *sysvb = NULL;
	uint32_t *hints = NULL, nneeded = 0;
	struct needed_id *needed = NULL;
	size_t gnulen = 0, sysvlen = 0, strlen_ = 0;
	uint8_t *strb = NULL;
	if (closure_build(&e, &o->so, &c, err, sizeof err) < 0) {
		report(path, "%s", err);
		goto done;
	}
	/* dynsym order: bucket order for a SysV-only file; -O1 rebuilds the
	 * hash tables larger (adding .gnu.hash) and orders for them */
	uint64_t oldgnu = e.gnuhash_size, oldsysv = sysv_hash_size(&e);
	if (o->level >= 1 || (o->sort && e.hash_off && !e.gnuhash_off)) {
		int gnu = o->level >= 1;
		uint32_t symoff, nb = gnu ? 0 : rd32(e.buf + e.hash_off);
		struct gnu_params gp;
		if (gnu) {
			/* bucket count depends on the number of hashed symbols */
			uint32_t *tmp = dynsort_order(&e, 1, 1, &symoff);
			free(tmp);
			gp = gnu_params_o1(&e, symoff);
			nb = gp.nbuckets;
		}
		uint32_t *order = dynsort_order(&e, gnu, nb, &symoff);
		if (!order || dynsort_apply(&e, order) < 0) {
			free(order);
			report(path, "out of memory");
			goto done;
		}
		free(order);
		if (gnu)
			gnub = gnu_hash_build(&e, &gp, &gnulen);
		if (e.hash_off)
			sysvb = sysv_hash_build(&e, gnu ? prime_at_least(e.nsyms) : nb, &sysvlen);
		dflags = QB_TF_DYNSORTED;
	}
	/* bindings are per symbol index: only after the order is final */
	si = calloc(e.nsyms ? e.nsyms : 1, sizeof *si);
	hints = calloc(e.nsyms ? e.nsyms : 1, sizeof *hints);
	needed = calloc(c.n ? c.n : 1, sizeof *needed);
	if (!si || !hints || !needed || bind_compute(&c, &o->bo, si, hints) < 0) {
		report(path, "out of memory");
		goto done;
	}
	for (unsigned k = 1; k < c.n; k++)
		if (c.libs[k].dynidx >= 0)
			needed[nneeded++] = (struct needed_id){ (uint32_t)c.libs[k].dynidx,
				elf_symtab_id(&c.libs[k].e) };
	long moved = 0;
	if (o->sort && (moved = rel_sort(&e)) < 0) {
		report(path, "out of memory");
		goto done;
	}
	uint32_t flags = dflags | QB_TF_DIRECT | (e.rel_size && rel_grouped(&e) ? QB_TF_RELSORTED : 0);
	/* SysV values serve lookups in objects that have only DT_HASH:
	 * this one (for its own chains) or one it needs. */
	int sysv = !e.gnuhash_off && !gnub;
	for (unsigned k = 1; k < c.n && !sysv; k++)
		sysv = !c.libs[k].e.gnuhash_off;
	if (sysv)
		flags |= QB_TF_SYSVHASH;
	qbt = qbt_build_hints(&e, flags, hints, needed, nneeded, &qlen);
	sib = syminfo_build(si, e.nsyms, &slen);
	if (!qbt || !sib) {
		report(path, "out of memory");
		goto done;
	}
	/* last: from here on symbol names are read through the new table.
	 * Linkers merge string suffixes, so the ordered table is often larger:
	 * only -O1 pays for a new copy, otherwise it must fit in place. */
	if (o->sort && dynstr_sort(&e, o->level >= 1, &strb, &strlen_) != 0) {
		free(strb);
		strb = NULL;
	}
	struct blob b[5] = {
		{ .secname = ".SUNW_syminfo", .shtype = SHT_SUNW_syminfo, .entsize = 4, .align = 4,
		  .ptag = DT_SYMINFO, .stag = DT_SYMINSZ, .link_dynsym = 1, .info_dynamic = 1,
		  .data = sib, .len = slen },
		{ .secname = ".qb.table", .shtype = SHT_PROGBITS, .entsize = 0, .align = 8,
		  .ptag = DT_QB_TABLE, .stag = DT_QB_TABLESZ, .data = qbt, .len = qlen },
	};
	unsigned nb = 2;
	if (sysvb)
		b[nb++] = (struct blob){ .secname = ".hash", .shtype = SHT_HASH, .entsize = 4, .align = e.is64 ? 8 : 4,
					 .ptag = DT_HASH, .link_dynsym = 1, .data = sysvb, .len = sysvlen,
					 .cursize = oldsysv };
	if (strb)
		b[nb++] = (struct blob){ .secname = ".dynstr", .shtype = SHT_STRTAB, .align = 1,
					 .ptag = DT_STRTAB, .stag = DT_STRSZ, .data = strb, .len = strlen_ };
	if (gnub)
		b[nb++] = (struct blob){ .secname = ".gnu.hash", .shtype = SHT_GNU_HASH, .entsize = e.is64 ? 0 : 4, .align = e.is64 ? 8 : 4,
					 .ptag = DT_GNU_HASH, .link_dynsym = 1, .data = gnub, .len = gnulen,
					 .cursize = oldgnu };
	struct fixed_tag ft[] = { { DT_SYMINENT, 4 } };
	if (layout_apply(&e, b, nb, ft, 1, &out, &olen) < 0) {
		report(path, "%s", e.err);
		goto done;
	}
	/* the identity covers the symbol table as finally written */
	struct elf fin;
	uint8_t *fbuf = malloc(olen ? olen : 1);
	if (!fbuf) {
		report(path, "out of memory");
		goto done;
	}
	memcpy(fbuf, out, olen);
	if (elf_parse(&fin, path, fbuf, olen) < 0 || qbt_set_self_id(&fin) < 0) {
		report(path, "cannot re-read the optimized file: %s", fin.err);
		elf_free(&fin);
		goto done;
	}
	memcpy(out, fin.buf, olen);
	elf_free(&fin);
	const char *dst = o->out ? (realpath(o->out, outreal) ? outreal : o->out) : real;
	if (!o->out && olen == orig_size && !memcmp(out, orig, olen)) {
		rc = LO_OK; /* already optimized: leave the file alone */
	} else if (write_atomic(dst, real, &st, out, olen, err, sizeof err) < 0) {
		report(o->out ? o->out : path, "%s", err);
		goto done;
	} else {
		rc = LO_OK;
		lo_files_written++;
	}
	if (o->verbose) {
		unsigned n[6] = { 0 };
		for (uint32_t i = 1; i < e.nsyms; i++) {
			if (si[i].flags & SYMINFO_FLG_DIRECT) n[0]++;
			else if (si[i].boundto == SYMINFO_BT_SELF) n[1]++;
			else if (si[i].flags & QB_SYMINFO_VAGUE) n[2]++;
			else if (si[i].flags & QB_SYMINFO_MULTI) n[3]++;
			else if (si[i].flags & QB_SYMINFO_NODIRECT) n[4]++;
			else n[5]++;
		}
		printf("%s: %u symbols: %u direct, %u defined, %u vague, %u multi, %u nodirect, %u not found; "
		       "%ld relocations moved; %zu -> %zu bytes\n",
		       o->out ? o->out : path, e.nsyms, n[0], n[1], n[2], n[3], n[4], n[5], moved, orig_size, olen);
	}
done:
	closure_free(&c);
	free(si);
	free(hints);
	free(needed);
	free(qbt);
	free(sib);
	free(gnub);
	free(sysvb);
	free(strb);
	free(out);
	free(orig);
	elf_free(&e);
	return rc;
}
