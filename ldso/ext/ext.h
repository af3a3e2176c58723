/* The one interface between the loader's core and its extensions.
 *
 * The core (the files of ldso/) maps, decodes, searches, looks up and relocates
 * exactly as the standard lookup requires, and is complete with no
 * extension at all (make QB_EXT=none). What makes it fast lives in
 * ldso/ext/, and the core reaches it only through the hooks below, at
 * points the core owns. Every hook is optional; an extension keeps its
 * per-object state in its own slot of struct dso (dso.ext[]), which the
 * core zeroes with the object and never reads.
 *
 * A hook that binds (bind, bind_named, reloc_run, lookup_global) must
 * give the answer the standard lookup would give, or decline and leave
 * the decision to the core; it never fails a relocation the core would
 * apply. */
#ifndef QB_EXT_H
#define QB_EXT_H

#include "ldso.h"

struct qb_ext {
	const char *name;
	/* p's segments are mapped; nothing of them has been read yet */
	void (*mapped)(struct dso *p);
	/* p's dynamic section is decoded and its tables checked; an
	 * extension whose tables bind p's references sets p->binder to
	 * itself: bind, hash, bind_named and chosen are asked of p's binder
	 * alone, once per reference, so without a walk of every extension */
	void (*decoded)(struct dso *p);
	/* p's DT_NEEDED entry at .dynamic index idx is satisfied by dep */
	void (*needed)(struct dso *p, size_t idx, struct dso *dep);
	/* the global scope changed: start-up loaded, a dlopen, its undo, an
	 * unload; may fail with qb_error only inside a transaction */
	void (*scope_changed)(void);
	/* before p's first relocation: 1 when reloc_run takes p's tables */
	int (*before_reloc)(struct dso *p);
	/* applies relocations from r on, up to end or to the first one it
	 * leaves to the core, which it returns; the core applies that one
	 * and calls again after it */
	const size_t *(*reloc_run)(struct dso *p, const size_t *r, const size_t *end, int rela);
	/* reference symi of p, before its name is read: 1 with *out bound */
	int (*bind)(struct dso *p, size_t symi, struct symdef *out);
	/* fills r's hash values (r->name and r->ver are set): 1 when done */
	int (*hash)(struct dso *p, size_t symi, struct qb_symreq *r);
	/* reference symi of p with its name at hand: 1 with *out bound */
	int (*bind_named)(struct dso *p, size_t symi, struct qb_symreq *r, struct symdef *out);
	/* the standard lookup bound symi of p to *def */
	void (*chosen)(struct dso *p, size_t symi, const struct qb_symreq *r, const struct symdef *def);
	/* the first definition of r in the global scope from `from` (a
	 * start-up object) on, skipping skip: 1 when answered */
	int (*lookup_global)(struct dso *from, struct qb_symreq *r, struct dso *skip, struct symdef *out);
	/* the standard lookup (qb_lookup's): the global scope, then root's
	 * local scope; the first extension with this hook answers every
	 * lookup, and may hand it to qb_lookup_std */
	struct symdef (*lookup)(struct qb_symreq *r, struct dso *skip, struct dso *root);
	/* p's relocations are all applied */
	void (*relocated)(struct dso *p);
	/* p leaves the loader: nothing may point at it any more */
	void (*released)(struct dso *p);
	/* a dlopen handle was closed (under the loader lock) */
	void (*closed)(void);
	/* a relocation of from, or a dlsym on its behalf, bound to def, an
	 * object dlopen brought in */
	void (*bound)(struct dso *from, struct dso *def);
	/* an exit or fork handler, or a thread-specific value's destructor,
	 * was registered, naming these addresses (0: none) */
	void (*registered)(const void *a, const void *b, const void *c);
	/* LD_DEBUG=statistics: fold == 1, add to the core's counts; fold ==
	 * 0, print the extension's own lines */
	void (*stats)(struct qb_stats *s, const char *when, int fold);
};

/* The extensions built in, in the order their hooks are asked; ends with
 * a null pointer (ldso/ext/registry.c, or ldso/ext/none.c). */
extern const struct qb_ext *const qb_exts[] hidden;

#define QB_EXT_EACH(e) for (const struct qb_ext *const *e = qb_exts; *e; e++)

static inline void qb_ext_mapped(struct dso *p)
{
	QB_EXT_EACH(e) if ((*e)->mapped) (*e)->mapped(p);
}

static inline void qb_ext_decoded(struct dso *p)
{
	QB_EXT_EACH(e) if ((*e)->decoded) (*e)->decoded(p);
}

static inline void qb_ext_needed(struct dso *p, size_t idx, struct dso *dep)
{
	QB_EXT_EACH(e) if ((*e)->needed) (*e)->needed(p, idx, dep);
}

static inline void qb_ext_scope_changed(void)
{
	QB_EXT_EACH(e) if ((*e)->scope_changed) (*e)->scope_changed();
}

/* The extension whose reloc_run takes p's tables, or 0. */
static inline const struct qb_ext *qb_ext_before_reloc(struct dso *p)
{
	const struct qb_ext *run = 0;
	QB_EXT_EACH(e) if ((*e)->before_reloc && (*e)->before_reloc(p) && !run && (*e)->reloc_run)
		run = *e;
	return run;
}

static inline int qb_ext_bind(struct dso *p, size_t symi, struct symdef *out)
{
	return p->binder->bind && p->binder->bind(p, symi, out);
}

static inline int qb_ext_hash(struct dso *p, size_t symi, struct qb_symreq *r)
{
	return p->binder->hash && p->binder->hash(p, symi, r);
}

static inline int qb_ext_bind_named(struct dso *p, size_t symi, struct qb_symreq *r, struct symdef *out)
{
	return p->binder->bind_named && p->binder->bind_named(p, symi, r, out);
}

static inline void qb_ext_chosen(struct dso *p, size_t symi, const struct qb_symreq *r,
	const struct symdef *def)
{
	if (p->binder->chosen)
		p->binder->chosen(p, symi, r, def);
}

static inline int qb_ext_lookup_global(struct dso *from, struct qb_symreq *r, struct dso *skip,
	struct symdef *out)
{
	QB_EXT_EACH(e) if ((*e)->lookup_global && (*e)->lookup_global(from, r, skip, out)) return 1;
	return 0;
}

static inline void qb_ext_relocated(struct dso *p)
{
	QB_EXT_EACH(e) if ((*e)->relocated) (*e)->relocated(p);
}

static inline void qb_ext_released(struct dso *p)
{
	QB_EXT_EACH(e) if ((*e)->released) (*e)->released(p);
}

static inline void qb_ext_closed(void)
{
	QB_EXT_EACH(e) if ((*e)->closed) (*e)->closed();
}

/* Does an extension unload at dlclose (LD_DLCLOSE=unload means nothing
 * without one)? */
static inline int qb_ext_unloads(void)
{
	QB_EXT_EACH(e) if ((*e)->closed) return 1;
	return 0;
}

static inline void qb_ext_bound(struct dso *from, struct dso *def)
{
	QB_EXT_EACH(e) if ((*e)->bound) (*e)->bound(from, def);
}

static inline void qb_ext_registered(const void *a, const void *b, const void *c)
{
	QB_EXT_EACH(e) if ((*e)->registered) (*e)->registered(a, b, c);
}

static inline void qb_ext_stats(struct qb_stats *s, const char *when, int fold)
{
	QB_EXT_EACH(e) if ((*e)->stats) (*e)->stats(s, when, fold);
}

#endif
