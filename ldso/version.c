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
	struct qb_verdef_ent *nv = qb_realloc(*v, m * sizeof *nv);
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

static int add_verdef(void *arg, const struct qb_verdef_rec *d)
{
	struct dso *p = arg;
	const char *name = name_at(p, d->name);
	if (!name || grow(&p->vdefs, &p->nvdefs, d->ndx & 0x7fff))
		return -1;
	struct qb_verdef_ent *e = &p->vdefs[d->ndx & 0x7fff];
	e->name = name;
	e->hash = d->hash;
	e->base = !!(d->flags & VER_FLG_BASE);
	return 0;
}

static int add_verreq(void *arg, const struct qb_vernaux_rec *n)
{
	struct dso *p = arg;
	const char *name = name_at(p, n->name);
	size_t idx = n->other & 0x7fff;
	if (!name || grow(&p->vreqs, &p->nvreqs, idx))
		return -1;
	p->vreqs[idx].name = name;
	p->vreqs[idx].hash = n->hash;
	return 0;
}

hidden const char *qb_build_verdefs(struct dso *p, const struct qb_elfview *v)
{
	const char *why = 0;
	if (p->dyn.verdef && (why = qb_each_verdef(v, p->dyn.verdef, p->dyn.verdefnum, add_verdef, p)))
		return why;
	if (p->dyn.verneed && (why = qb_each_vernaux(v, p->dyn.verneed, p->dyn.verneednum, add_verreq, p)))
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
