#include <string.h>
#include "dynamic.h"

static int store(struct qb_dyninfo *d, size_t tag, size_t val)
{
	switch (tag) {
	case DT_NEEDED: d->nneeded++; break;
	case DT_STRTAB: d->strtab = val; break;
	case DT_STRSZ: d->strsz = val; break;
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
	case DT_SYMINSZ: d->syminsz = val; break;
	case DT_SYMINENT: d->syminent = val; break;
	case DT_QB_TABLE: d->qb_table = val; break;
	case DT_QB_TABLESZ: d->qb_tablesz = val; break;
	default: break;
	}
	return 0;
}

int qb_decode_dynamic(const void *dynv, size_t max, int wide,
	struct qb_dyninfo *out, const char **why)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < max; i++) {
		size_t tag, val;
		if (wide) {
			const uint64_t *e = (const uint64_t *)dynv + 2 * i;
			tag = (size_t)e[0];
			val = (size_t)e[1];
		} else {
			const uint32_t *e = (const uint32_t *)dynv + 2 * i;
			tag = e[0];
			val = e[1];
		}
		if (tag == DT_NULL)
			goto check;
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
