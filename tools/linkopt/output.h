/* A run over several files is all or nothing. Each output is written to a
 * temporary file next to its destination, with the destination's owner,
 * mode (set-id bits included), extended attributes (capabilities, ACLs)
 * and modification time, and read back; only when every file of the run
 * succeeded are they renamed over their destinations (lo_commit). What was
 * read of the files before (objcache.h) is the caller's to retire. */
#ifndef LINKOPT_OUTPUT_H
#define LINKOPT_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "elffile.h"

/* like: attributes to give dst; src: file whose extended attributes are
 * copied. A dst with several hard links is refused unless every name of it
 * was noted (lo_note_name). Staging dst again in
 * the same run replaces its earlier output. */
int lo_stage(const char *dst, const char *src, const struct stat *like, const uint8_t *buf, size_t len,
	     char *err, size_t errlen);
/* Loads path as this run will leave it (its staged output, if any). */
int lo_load_elf(struct elf *e, const char *path);
unsigned lo_nstaged(void);
/* Renames every staged file over its destination, or (on a failure, named
 * in *failed and err) restores every original. */
int lo_commit(const char **failed, char *err, size_t errlen);
/* --root: notes one name of a file with several hard links. When every
 * name of a file was noted, lo_stage accepts it and lo_commit points each
 * name at the new file; otherwise it is refused. -1: out of memory. */
int lo_note_name(const char *path);
/* A file with one name, or one whose every name was noted. */
int lo_all_names_known(const struct stat *st);
/* Discards every staged file. */
void lo_abort(void);

#endif
