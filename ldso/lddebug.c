/* LD_DEBUG: what the loader decides, on stderr or in LD_DEBUG_OUTPUT.PID.
 * Categories: libs, bindings, statistics, direct, all, help. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ext/ext.h"
#include "pathexp.h"

static int dbg_fd = 2;

static const struct { const char *name; unsigned bit; const char *what; } cats[] = {
	{ "libs", QB_DBG_LIBS, "library search and load decisions" },
	{ "bindings", QB_DBG_BINDINGS, "each symbol binding of the program's objects: referencing object, symbol, definition" },
	{ "statistics", QB_DBG_STATS, "counts of objects, relocations, lookups, probes, comparisons; time, with what each counts" },
	{ "direct", QB_DBG_DIRECT, "each direct-binding decision" },
	{ "all", QB_DBG_ALL, "all of the above" },
};

hidden void qb_debug_setup(const char *spec, const char *output)
{
	const char *cur = spec, *e;
	size_t n;
	while ((n = qb_path_next(&cur, " ,:", &e))) {
		size_t i;
		if (n == 4 && !strncmp(e, "help", 4)) {
			dprintf(1, "Valid options for the LD_DEBUG environment variable are:\n\n");
			for (i = 0; i < sizeof cats / sizeof *cats; i++)
				dprintf(1, "  %-12s %s\n", cats[i].name, cats[i].what);
			dprintf(1, "\nTo direct the output into a file instead of standard error,\n"
				"set LD_DEBUG_OUTPUT to a file name (the process id is appended).\n");
			_exit(0);
		}
		for (i = 0; i < sizeof cats / sizeof *cats; i++)
			if (strlen(cats[i].name) == n && !strncmp(e, cats[i].name, n)) {
				qb.debug |= cats[i].bit;
				break;
			}
		if (i == sizeof cats / sizeof *cats)
			dprintf(2, "%s: warning: unknown LD_DEBUG option '%.*s' (try LD_DEBUG=help)\n",
				QB_LDSO_NAME, (int)n, e);
	}
	if (qb.debug && output && *output) {
		char path[4096];
		snprintf(path, sizeof path, "%s.%d", output, (int)getpid());
		int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (fd >= 0)
			dbg_fd = fd;
	}
}

hidden void qb_dbg(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = snprintf(buf, sizeof buf, "%8d: ", (int)getpid());
	int m = vsnprintf(buf + n, sizeof buf - n - 1, fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	n += (size_t)m < sizeof buf - n - 1 ? m : (int)(sizeof buf - n - 2);
	buf[n++] = '\n';
	(void)!write(dbg_fd, buf, n);
}

hidden uint64_t qb_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static const char *const kind_names[] = {
	[RK_UNKNOWN] = "unknown", [RK_NONE] = "none", [RK_WORD] = "word",
	[RK_PC32] = "pc32", [RK_PCWORD] = "pcword", [RK_ABS32U] = "abs32",
	[RK_ABS32S] = "abs32s", [RK_GOT] = "got", [RK_PLT] = "plt",
	[RK_RELATIVE] = "relative", [RK_COPY] = "copy", [RK_IRELATIVE] = "irelative",
	[RK_DTPMOD] = "dtpmod", [RK_DTPOFF] = "dtpoff", [RK_TPOFF] = "tpoff",
#ifdef QB_TPOFF_ARCH_NAME
	[RK_TPOFF_ARCH] = QB_TPOFF_ARCH_NAME,
#endif
	[RK_TLSDESC] = "tlsdesc",
};

hidden void qb_debug_stats(const char *when)
{
	if (!(qb.debug & QB_DBG_STATS))
		return;
	struct qb_stats *s = &qb.stats;
	qb_ext_stats(s, when, 1);
	char kinds[512] = "";
	size_t k = 0;
	for (size_t i = 0; i < sizeof kind_names / sizeof *kind_names && k < sizeof kinds - 40; i++)
		if (s->bykind[i])
			k += snprintf(kinds + k, sizeof kinds - k, " %s=%zu", kind_names[i], s->bykind[i]);
	static int told;
	if (!told++)
		qb_dbg("statistics: counts since start-up: objects loaded; relocations applied [by kind]; "
			"lookups of a name in a scope; probes: objects asked in them; strcmps: names compared; "
			"cache_reuses: relocations bound by an earlier one against the same symbol; "
			"relocation_time in milliseconds of the clock");
	qb_dbg("statistics (%s): objects=%zu relocations=%zu [%s ]", when, qb.ndso, s->relocs, kinds);
	qb_dbg("statistics (%s): lookups=%zu probes=%zu probes/lookup=%.2f strcmps=%zu cache_reuses=%zu",
		when, s->lookups, s->probes, s->lookups ? (double)s->probes / s->lookups : 0.0,
		s->strcmps, s->cache_hits);
	qb_ext_stats(s, when, 0);
	if (qb.env.verify)
		qb_dbg("statistics (%s): verify_differences=%zu", when, qb.verify_diffs);
	qb_dbg("statistics (%s): relocation_time=%.3f ms", when, s->reloc_ns / 1e6);
	const void *region;
	size_t taken = qb_arena_taken(&region);
	qb_dbg("statistics (%s): memory=%zu bytes taken from the region at %p", when, taken, region);
}
