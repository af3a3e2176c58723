/* The run's objects and symbol index (objcache.h): each file read once
 * per version and shared by reference count, a version retired when its
 * file is staged anew or the run ends; each indexed object's exported
 * definitions chained by name, for defscope.c. */
#include "objcache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfhash.h"
#include "index.h"
#include "output.h"

/* serial -> object, NULL once freed */
static struct cobj **objs;
static uint32_t nobjs, capobjs;
/* (dev, ino) -> serial of the live version */
static struct filemap live;

static void unindex(struct cobj *o);

uint32_t objcache_nserial(void)
{
	return nobjs;
}

static int same_version(const struct cobj *o, const struct stat *st)
{
	return o->size == (long long)st->st_size && o->mtim.tv_sec == st->st_mtim.tv_sec &&
	       o->mtim.tv_nsec == st->st_mtim.tv_nsec && o->ctim.tv_sec == st->st_ctim.tv_sec &&
	       o->ctim.tv_nsec == st->st_ctim.tv_nsec;
}

struct cobj *objcache_ref(struct cobj *o)
{
	o->refs++;
	return o;
}

void objcache_put(struct cobj *o)
{
	if (!o || --o->refs)
		return;
	unindex(o);
	objs[o->serial] = NULL;
	elf_free(&o->e);
	free(o->path);
	free(o);
}

static void retire(struct cobj *o)
{
	filemap_del(&live, o->dev, o->ino);
	o->live = 0;
	objcache_put(o);
}

void objcache_forget(unsigned long long dev, unsigned long long ino)
{
	uint32_t s;
	if (filemap_get(&live, dev, ino, &s))
		retire(objs[s]);
}

static unsigned runs;

unsigned objcache_run(void)
{
	return runs;
}

void objcache_clear(void)
{
	runs++;
	for (uint32_t s = 0; s < nobjs; s++)
		if (objs[s] && objs[s]->live)
			retire(objs[s]);
}

struct cobj *objcache_get(const char *path, const struct stat *st, char *err, size_t errlen)
{
	uint32_t s;
	if (filemap_get(&live, st->st_dev, st->st_ino, &s)) {
		if (same_version(objs[s], st))
			return objcache_ref(objs[s]);
		retire(objs[s]);
	}
	if (nobjs == capobjs) {
		uint32_t nc = capobjs ? 2 * capobjs : 256;
		struct cobj **n = realloc(objs, nc * sizeof *n);
		if (!n) {
			snprintf(err, errlen, "out of memory");
			return NULL;
		}
		objs = n;
		capobjs = nc;
	}
	struct cobj *o = calloc(1, sizeof *o);
	if (!o || !(o->path = strdup(path))) {
		free(o);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (lo_load_elf(&o->e, path) < 0) {
		snprintf(err, errlen, "%s", o->e.err);
		elf_free(&o->e);
		free(o->path);
		free(o);
		return NULL;
	}
	o->e.path = o->path;
	o->dev = st->st_dev;
	o->ino = st->st_ino;
	o->size = st->st_size;
	o->mtim = st->st_mtim;
	o->ctim = st->st_ctim;
	o->refs = 1;
	o->live = 1;
	o->serial = nobjs;
	if (filemap_put(&live, o->dev, o->ino, o->serial) < 0) {
		elf_free(&o->e);
		free(o->path);
		free(o);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	objs[nobjs++] = o;
	return objcache_ref(o);
}

uint64_t cobj_symtab_id(struct cobj *o)
{
	if (!o->have_id) {
		o->id = elf_symtab_id(&o->e);
		o->have_id = 1;
	}
	return o->id;
}

/* The symbol index: open addressing on the name (a slot holds the first
 * and last definition of one name), the definitions of a name chained in
 * indexing order. A name whose definitions all went leaves a tombstone. */
struct sslot {
	uint32_t hash, head, tail;  /* head, tail: index+1; head 0: empty */
};
#define TOMB UINT32_MAX

static struct sslot *slots;
static size_t smask, sused;   /* sused: slots not empty (tombstones too) */
static struct symdef *defs;
static uint32_t ndefs, capdefs, freedefs;  /* freedefs: index+1 of a free node */

const struct symdef *symindex_def(uint32_t k)
{
	return &defs[k - 1];
}

static const char *def_name(uint32_t k)
{
	const struct symdef *d = &defs[k - 1];
	return elf_sym_name(&d->obj->e, d->sym);
}

/* The slot of name, or the empty slot where it goes (a tombstone passed
 * on the way when there is one). */
static struct sslot *find_slot(const char *name, uint32_t h)
{
	struct sslot *tomb = NULL;
	for (size_t j = h & smask;; j = (j + 1) & smask) {
		struct sslot *s = &slots[j];
		if (!s->head)
			return tomb ? tomb : s;
		if (s->head == TOMB) {
			if (!tomb)
				tomb = s;
			continue;
		}
		if (s->hash == h && !strcmp(def_name(s->head), name))
			return s;
	}
}

static int grow_slots(void)
{
	size_t ncap = slots ? 2 * (smask + 1) : 4096;
	struct sslot *n = calloc(ncap, sizeof *n);
	if (!n)
		return -1;
	size_t used = 0;
	for (size_t i = 0; slots && i <= smask; i++) {
		if (!slots[i].head || slots[i].head == TOMB)
			continue;
		size_t j = slots[i].hash & (ncap - 1);
		while (n[j].head)
			j = (j + 1) & (ncap - 1);
		n[j] = slots[i];
		used++;
	}
	free(slots);
	slots = n;
	smask = ncap - 1;
	sused = used;
	return 0;
}

uint32_t symindex_first(const char *name, uint32_t h)
{
	if (!slots)
		return 0;
	const struct sslot *s = find_slot(name, h);
	return s->head == TOMB ? 0 : s->head;
}

static uint32_t new_def(void)
{
	if (freedefs) {
		uint32_t k = freedefs;
		freedefs = defs[k - 1].next;
		return k;
	}
	if (ndefs == capdefs) {
		uint32_t nc = capdefs ? 2 * capdefs : 16384;
		struct symdef *n = realloc(defs, nc * sizeof *n);
		if (!n)
			return 0;
		defs = n;
		capdefs = nc;
	}
	return ++ndefs;
}

int cobj_index(struct cobj *o)
{
	if (o->indexed)
		return 0;
	/* set first: what a failure leaves half done is removed with it */
	o->indexed = 1;
	const struct elf *e = &o->e;
	for (uint32_t i = 1; i < e->nsyms; i++) {
		if (!elf_sym_exported(e, i))
			continue;
		if ((!slots || 2 * (sused + 1) > smask + 1) && grow_slots() < 0)
			return -1;
		uint32_t k = new_def();
		if (!k)
			return -1;
		const char *name = elf_sym_name(e, i);
		uint32_t h = qb_gnu_hash(name);
		defs[k - 1] = (struct symdef){ o, i, 0 };
		struct sslot *s = find_slot(name, h);
		if (s->head && s->head != TOMB) {
			defs[s->tail - 1].next = k;
			s->tail = k;
			continue;
		}
		if (!s->head)
			sused++;
		*s = (struct sslot){ h, k, k };
	}
	return 0;
}

/* Before o's buffers go: its definitions leave the chains (names are read
 * from the objects, so every definition in a chain is of a live one). */
static void unindex(struct cobj *o)
{
	if (!o->indexed)
		return;
	const struct elf *e = &o->e;
	for (uint32_t i = 1; i < e->nsyms; i++) {
		if (!elf_sym_exported(e, i))
			continue;
		const char *name = elf_sym_name(e, i);
		struct sslot *s = find_slot(name, qb_gnu_hash(name));
		if (!s->head || s->head == TOMB)
			continue;
		uint32_t prev = 0, k = s->head;
		while (k && (defs[k - 1].obj != o || defs[k - 1].sym != i)) {
			prev = k;
			k = defs[k - 1].next;
		}
		if (!k)
			continue;
		uint32_t next = defs[k - 1].next;
		if (prev)
			defs[prev - 1].next = next;
		else
			s->head = next;
		if (s->tail == k)
			s->tail = prev;
		defs[k - 1] = (struct symdef){ NULL, 0, freedefs };
		freedefs = k;
		if (!s->head)
			s->head = TOMB;  /* slot keeps its hash; probes pass it */
	}
	o->indexed = 0;
}
