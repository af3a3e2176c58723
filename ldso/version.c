/* Symbol versions of a loaded object: the versions it defines (DT_VERDEF)
 * and the ones its references require (DT_VERNEED), both indexed by the
 * version index that DT_VERSYM holds. */
#include <string.h>
#include "ldso.h"

static int grow(struct qb_verdef_ent **v, size_t *n, size_t idx)
{
	if (idx < *n)
		return 0;
	size_t m = idx + 1;
	struct qb_verdef_ent *nv = __libc_realloc(*v, m * sizeof *nv);
	if (!nv)
		return -1;
	memset(nv + *n, 0, (m - *n) * sizeof *nv);
	*v = nv;
	*n = m;
	return 0;
}

static const char *name_at(struct dso *p, size_t off)
{
	return off < p->dyn.strsz ? p->strings + off : 0;
}

static const char *read_verdefs(struct dso *p)
{
	size_t off = p->dyn.verdef;
	for (size_t k = 0; k < p->dyn.verdefnum; k++) {
		if (!qb_in_image(p, off, sizeof(Verdef)))
			return "version definitions outside the image";
		Verdef *vd = qb_laddr(p, off);
		if (!qb_in_image(p, off + vd->vd_aux, sizeof(Verdaux)))
			return "version definitions outside the image";
		Verdaux *va = qb_laddr(p, off + vd->vd_aux);
		const char *name = name_at(p, va->vda_name);
		if (!name || grow(&p->vdefs, &p->nvdefs, vd->vd_ndx & 0x7fff))
			return "bad version definition";
		struct qb_verdef_ent *e = &p->vdefs[vd->vd_ndx & 0x7fff];
		e->name = name;
		e->hash = vd->vd_hash;
		e->base = !!(vd->vd_flags & VER_FLG_BASE);
		if (!vd->vd_next)
			break;
		off += vd->vd_next;
	}
	return 0;
}

static const char *read_verneeds(struct dso *p)
{
	size_t off = p->dyn.verneed;
	for (size_t k = 0; k < p->dyn.verneednum; k++) {
		if (!qb_in_image(p, off, sizeof(Verneed)))
			return "version requirements outside the image";
		Verneed *vn = qb_laddr(p, off);
		size_t aoff = off + vn->vn_aux;
		for (size_t j = 0; j < vn->vn_cnt; j++) {
			if (!qb_in_image(p, aoff, sizeof(Vernaux)))
				return "version requirements outside the image";
			Vernaux *va = qb_laddr(p, aoff);
			const char *name = name_at(p, va->vna_name);
			size_t idx = va->vna_other & 0x7fff;
			if (!name || grow(&p->vreqs, &p->nvreqs, idx))
				return "bad version requirement";
			p->vreqs[idx].name = name;
			p->vreqs[idx].hash = va->vna_hash;
			if (!va->vna_next)
				break;
			aoff += va->vna_next;
		}
		if (!vn->vn_next)
			break;
		off += vn->vn_next;
	}
	return 0;
}

hidden const char *qb_build_verdefs(struct dso *p)
{
	const char *why = 0;
	if (p->dyn.verdef && (why = read_verdefs(p)))
		return why;
	if (p->dyn.verneed && (why = read_verneeds(p)))
		return why;
	return 0;
}

/* The requirement of reference symbol i of p, or 0 when unversioned. */
hidden int qb_verreq_of(struct dso *p, size_t i, struct qb_verreq *out)
{
	if (!p->versym)
		return 0;
	size_t idx = p->versym[i] & 0x7fff;
	if (idx <= VER_NDX_GLOBAL || idx >= p->nvreqs || !p->vreqs[idx].name)
		return 0;
	out->name = p->vreqs[idx].name;
	out->hash = p->vreqs[idx].hash;
	out->is_hidden = !!(p->versym[i] & 0x8000);
	return 1;
}
