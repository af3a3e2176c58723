/* Symbol versions of a loaded object: the versions it defines (DT_VERDEF)
 * and the ones its references require (DT_VERNEED), both indexed by the
 * version index that DT_VERSYM holds. */
#include "ldso.h"

/* Entry idx (its hidden bit aside) of a table by version index: the
 * version whose name is at offset `name` of the string table. */
static int add(struct dso *p, struct qb_verdef_ent **tab, size_t *n, size_t idx, size_t name,
	uint32_t hash, int base)
{
	struct qb_verdef_ent *v = name < p->dyn.strsz ? qb_grow(*tab, n, idx & 0x7fff, sizeof *v) : 0;
	if (!v)
		return -1;
	*tab = v;
	v[idx & 0x7fff] = (struct qb_verdef_ent){ p->strings + name, hash, base };
	return 0;
}

static int add_verdef(void *arg, const struct qb_verdef_rec *d)
{
	struct dso *p = arg;
	return add(p, &p->vdefs, &p->nvdefs, d->ndx, d->name, d->hash, !!(d->flags & VER_FLG_BASE));
}

static int add_verreq(void *arg, const struct qb_vernaux_rec *n)
{
	struct dso *p = arg;
	return add(p, &p->vreqs, &p->nvreqs, n->other, n->name, n->hash, 0);
}

hidden const char *qb_build_verdefs(struct dso *p, const struct qb_elfview *v)
{
	const char *why = p->dyn.verdef ? qb_each_verdef(v, p->dyn.verdef, p->dyn.verdefnum, add_verdef, p) : 0;
	if (!why && p->dyn.verneed)
		why = qb_each_vernaux(v, p->dyn.verneed, p->dyn.verneednum, add_verreq, p);
	return why;
}

/* The requirement of reference symbol i of p, or 0 when unversioned. */
hidden int qb_verreq_of(struct dso *p, size_t i, struct qb_verreq *out)
{
	if (!p->versym)
		return 0;
	size_t idx = p->versym[i] & 0x7fff;
	if (idx <= VER_NDX_GLOBAL || idx >= p->nvreqs || !p->vreqs[idx].name)
		return 0;
	*out = (struct qb_verreq){ p->vreqs[idx].name, p->vreqs[idx].hash, !!(p->versym[i] & 0x8000) };
	return 1;
}
