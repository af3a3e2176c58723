/* The objects of one linkopt run, each read once: a library that every
 * file of a 400-library application loads is parsed once per version,
 * not once per file. A version is the file as this run will leave it
 * (lo_load_elf); staging a new output for a file retires the version read
 * before (whoever stages it calls objcache_forget, and objcache_clear once
 * the run is committed or abandoned), and a file changed on disk (size,
 * modification or change time) is read again.
 *
 * The symbol index maps a name to its exported definitions in every
 * object the run indexed, so resolving a reference against a closure of
 * hundreds of libraries looks at the definitions of that name only
 * (tools/linkopt/defscope.c, struct defscope). */
#ifndef LINKOPT_OBJCACHE_H
#define LINKOPT_OBJCACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "elffile.h"

struct cobj {
	struct elf e;            /* owned; read-only for its users */
	char *path;              /* as first read */
	unsigned long long dev, ino;
	struct timespec mtim, ctim;
	long long size;
	unsigned refs;           /* the cache's own while live, one per user */
	int live;                /* still the file's current version */
	int indexed;             /* its definitions are in the symbol index */
	int have_id;
	uint64_t id;             /* elf_symtab_id, once computed */
	uint32_t serial;         /* unique per version read in this run */
};

/* A reference to path's object (st: stat(path)), or NULL with one line in
 * err. Users share the buffers: struct elf copies of o->e are shallow. */
struct cobj *objcache_get(const char *path, const struct stat *st, char *err, size_t errlen);
void objcache_put(struct cobj *o);
struct cobj *objcache_ref(struct cobj *o);
/* The file (dev, ino) is being replaced: the next get reads it again. */
void objcache_forget(unsigned long long dev, unsigned long long ino);
/* Retires every version (the end of a run: files were renamed). */
void objcache_clear(void);
/* Counts objcache_clear calls: what was derived from the files before
 * the last one (tools/linkopt/appview.c) is not kept past it. */
unsigned objcache_run(void);
/* Serials given so far (every serial is below it). */
uint32_t objcache_nserial(void);
uint64_t cobj_symtab_id(struct cobj *o);

/* Adds o's exported definitions to the symbol index (once); -1 when out
 * of memory. Removed when o is freed. */
int cobj_index(struct cobj *o);

struct symdef {
	struct cobj *obj;
	uint32_t sym;
	uint32_t next;           /* index+1 of the next definition of the name, 0 */
};
/* The indexed definitions of name (hash: its GNU hash), in the order the
 * objects were indexed: index+1 of the first, 0 when none. */
uint32_t symindex_first(const char *name, uint32_t hash);
const struct symdef *symindex_def(uint32_t k);

#endif
