/* Every environment variable the loader reads, in one table: stage2.c
 * parses them from it, secure mode removes every one of them
 * (secureenv.c), --help prints it, and a test holds the README's list
 * against it. X(name, field, kind, help): kind STR keeps the value in
 * qb.env.field, FLAG sets it to 1 when the variable is set at all. */
#ifndef QB_SWITCHES_H
#define QB_SWITCHES_H

#define QB_SWITCHES(X) \
	X("LD_LIBRARY_PATH", library_path, STR, \
		"directories searched first, before DT_RPATH and DT_RUNPATH") \
	X("LD_PRELOAD", preload, STR, \
		"objects loaded first (separated by colons or white space); they interpose") \
	X("LD_BIND_NOW", bind_now, FLAG, \
		"accepted; every binding is made at load time") \
	X("LD_DEBUG", debug, STR, \
		"libs, bindings, statistics, direct, all, help") \
	X("LD_DEBUG_OUTPUT", debug_output, STR, \
		"write the LD_DEBUG output to FILE.PID instead of stderr") \
	X("LD_DLCLOSE", dlclose, STR, \
		"unload: dlclose unloads objects no handle or object needs (default: they stay, as in musl)") \
	X("LD_NODIRECT", no_direct, FLAG, \
		"ignore direct-binding tables") \
	X("LD_NOHASHVALS", no_hashvals, FLAG, \
		"ignore precomputed hash values") \
	X("LD_NOSYMCACHE", no_symcache, FLAG, \
		"no per-object symbol-lookup cache") \
	X("LD_NOHINTS", no_hints, FLAG, \
		"ignore definition hints and scope definers") \
	X("LD_NORECORD", no_record, FLAG, \
		"ignore the program's launch record") \
	X("LD_NOPREFETCH", no_prefetch, FLAG, \
		"do not ask the kernel early for the files start-up will read") \
	X("LD_RECORD_PAGES", record_pages, STR, \
		"at exit, append the file pages this run read of every loaded object to FILE (linkopt --pages)") \
	X("LD_DIRECT_VERIFY", verify, FLAG, \
		"resolve every fast-path binding the standard way too and report each difference; nothing changes") \
	X("LD_GLOBALTAB", globaltab, STR, \
		"0: never build the global table, 1: always (default: when it pays)")

#define QB_SW_FIELD_STR(f) const char *f;
#define QB_SW_FIELD_FLAG(f) unsigned char f;
#define QB_SW_FIELD(name, f, kind, help) QB_SW_FIELD_##kind(f)

/* The values, as stage2.c found them (all 0 in secure mode). */
struct qb_env {
	QB_SWITCHES(QB_SW_FIELD)
};

#endif
