/* The pages a run read, as the loader records them (LD_RECORD_PAGES,
 * docs/FORMAT.md 6.1), for the closure record's ranges (linkopt --pages). */
#ifndef LINKOPT_PAGESFILE_H
#define LINKOPT_PAGESFILE_H

#include <stddef.h>
#include <stdint.h>

#include "startread.h"

struct pagesfile;

/* The file at path, read whole; NULL with the reason in err (the file
 * and line named) when it cannot be read or a line is malformed. */
struct pagesfile *pagesfile_read(const char *path, char *err, size_t errlen);
void pagesfile_free(struct pagesfile *pf);

/* The recorded pages of the file at path (identified by its device,
 * inode and size, or its real path and size), every run's together, as
 * recorded (pagesfile_ranges orders and merges them); NULL with *n = 0
 * when none is recorded. */
const struct qb_range *pagesfile_find(const struct pagesfile *pf, const char *path, size_t *n);

/* Most ranges a library's recorded pages give in the closure record, and
 * the largest gap between two recorded runs of pages that is read rather
 * than asked for in two requests. */
#define PAGES_MAX_RANGES 256
#define PAGES_GAP (16u << 10)

/* The ranges to ask for of a file of fsize bytes: the recorded ranges
 * rec[0..n) with must[0..nmust) (what loading reads whatever the run),
 * inside the file, in offset order, merged where less than PAGES_GAP
 * apart, then where closest until at most max; returns their number. */
size_t pagesfile_ranges(const struct qb_range *rec, size_t n, const struct qb_range *must, size_t nmust,
	uint64_t fsize, struct qb_range *out, size_t max);

#endif
