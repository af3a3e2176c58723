/* Watching what the fast paths bind without the named lookup, where
 * they bind it: LD_DEBUG=statistics counts the relocations a hinted mode
 * bound, bindings and direct report each binding, and LD_DIRECT_VERIFY
 * checks it against the standard lookup. Nothing here changes a binding
 * or the path that makes it, so what is watched is what runs. */
#include "ext.h"

/* A binding a fast path made, of reference symi of p to val, watched as
 * it stands: reported (LD_DEBUG=bindings; direct, for a direct binding)
 * and checked against the standard lookup's answer (LD_DIRECT_VERIFY),
 * a difference counted and reported with both answers. Nothing is
 * changed: verify mode sees what runs. */
hidden void qb_watch(struct dso *p, size_t symi, size_t val, int by)
{
	static const char *const way[] = { "", "direct binding", "its scope definer", "the launch record" };
	const char *name = p->strings + p->syms[symi].st_name;
	const struct dso *def = val ? qb_dso_of_addr((void *)val) : 0;
	const char *dname = def ? def->name : "<undefined>";
	if ((qb.debug & QB_DBG_BINDINGS) && !p->is_ldso)
		qb_dbg("binding file %s to %s: symbol `%s'", p->name, dname, name);
	if ((qb.debug & QB_DBG_DIRECT) && by == QB_BY_DIRECT)
		qb_dbg("direct %s: %s -> %s", p->name, name, dname);
	if (!qb.env.verify)
		return;
	struct qb_verreq vr;
	struct qb_symreq r;
	qb_symreq_init(&r, name, qb_verreq_of(p, symi, &vr) ? &vr : 0);
	struct symdef std = qb_lookup_std(qb.head, &r, 0, p->reloc_root);
	if (!std.sym)
		qb_lfs64_bind(name, &std);
	size_t want = std.sym ? (size_t)std.dso->base + std.sym->st_value : 0;
	if (want == val)
		return;
	qb.verify_diffs++;
	qb_dbg("verify: %s: %s: %s gives %s, standard lookup gives %s (%#zx, %#zx)", p->name, name, way[by],
		dname, std.sym ? std.dso->name : "<undefined>", val, want);
}

/* The relocations a hinted mode bound, r to end, watched from the
 * answers the loop read: counted (LD_DEBUG=statistics), and each binding
 * as qb_watch watches it. */
hidden void qb_observe(struct dso *p, const struct qb_prepared *s,
	const size_t *r, const size_t *end, int rela, int mode)
{
	for (size_t val = 0, last = QB_NO_INFO, how; r != end; r += rela ? 3 : 2) {
		size_t info = r[1], symi = QB_R_SYM(info);
		qb.stats.relocs++;
		qb.stats.bykind[qb_rel_kind(QB_R_TYPE(info))]++;
		if (!QB_SYM_TYPE(QB_R_TYPE(info)))
			continue;
		if (mode == QB_MODE_CAREFUL && !qb.env.no_symcache && info == last) {
			qb.stats.cache_hits += info != QB_NO_INFO;
			continue;
		}
		last = info;
		how = qb_hinted_value(s, symi, mode, &val);
		*(how == QB_BY_DIRECT ? &qb.stats.hinted : &qb.stats.recorded) += 1;
		if ((qb.debug & (QB_DBG_BINDINGS | QB_DBG_DIRECT)) || qb.env.verify)
			qb_watch(p, symi, val, (int)how);
	}
}
