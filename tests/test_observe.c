/* The observables suite: what a program, a user or a script sees of the
 * loader, under musl's loader and under quickbind, compared key by key on
 * each configured architecture.
 *
 * Every case is one bash line run in the architecture's fixture directory
 * (build/tests/observe/ARCH) with
 *   L  the loader under test (musl's, then quickbind),
 *   X  musl or qb: ./probe.$X has L as its PT_INTERP,
 *   T  an empty directory of the run's own (links named ldd, ...),
 *   F  the fixture directory.
 * Its output is read as "key value" lines (tests/observe/probe.c and the
 * libraries print them; a key seen again becomes key#2, key#3, ...), plus
 * `status` (how it ended) and `stderr` (all of it). Paths, the loader's
 * name and addresses are made neutral first.
 *
 * Every key must be the same under both loaders, unless the list of
 * deliberate differences (docs/DIFFERENCES.md) names it: each item ends with
 * "Observed as `CASE:KEY`, ..." (shell patterns; "ARCH/CASE:KEY" for one
 * architecture), and every key it names must differ on every
 * architecture it applies to: a difference the suite no longer sees is a
 * stale entry, and fails as surely as an unlisted one. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/fixture.h"
#include "lib/run.h"

#ifndef OBS_FIXTURES
#error "OBS_FIXTURES, OBS_ARCHS, OBS_DIFFERENCES and the loaders come from tests/observe.mk"
#endif

struct arch {
	const char *name, *musl, *qb;
};
static const struct arch archs[] = {
	{ "x86_64", "/lib/ld-musl-x86_64.so.1", OBS_LOADER_x86_64 },
	{ "i386", "/lib/ld-musl-i386.so.1", OBS_LOADER_i386 },
};

struct ocase {
	const char *id;
	const char *sh;
};

/* Programs: probe (libc only), probe_deps (needs libob_a -> libobb ->
 * libobc, libobd -> libobc, libobtls), probe_stack (-z stack-size=1 MiB),
 * probe_sub (needs sub/libobsub.so, on no RUNPATH), probe_miss (needs
 * libobmiss.so, which needs gone/libobgone.so), probe_big (needs
 * libobstack16.so, -z stack-size=16 MiB), symsprog (three symbols of
 * libobsyms.so that the one it finds lacks); libobmissref.so uses a
 * function of gone/libobgone.so, which it cannot find. Scenarios: see probe.c. */
/* The reproductions of issue 25 each case covers, compared with musl:
 * ../shared/repro/parity/01-cmdline-equals-forms: cmd-*-eq, cmd-all-eq;
 * ../shared/repro/parity/02-musl-ldd-name: ldd-musl-ldd, ldd-suffix;
 * ../shared/repro/parity/05-main-name-is-argv0: names-*;
 * ../shared/repro/parity/06-vdso-missing-from-dl_iterate_phdr: dl, list-*;
 * ../shared/repro/parity/07-ctor-under-loader-lock-deadlock: ctors-threads*;
 * ../shared/repro/parity/08-promotion-scope-position: promote;
 * ../shared/repro/parity/09-ld_preload-tab-newline: env-pre-tab,
 *   env-pre-newline, cmd-pre-eq-tab;
 * ../shared/repro/parity/10-dlopen-changes-default-thread-stack: stack*. */
static const struct ocase cases[] = {
	/* ---- the command line: every option, every form musl takes */
	{ "cmd-plain", "exec \"$L\" ./probe.musl hello a b" },
	{ "cmd-dashdash", "exec \"$L\" -- ./probe.musl hello a" },
	{ "cmd-dashdash-twice", "exec \"$L\" -- -- hello" },
	{ "cmd-list", "exec \"$L\" --list ./probe_deps.musl" },
	{ "cmd-list-dashdash", "exec \"$L\" --list -- ./probe_deps.musl" },
	{ "cmd-list-after", "exec \"$L\" ./probe.musl --list" },
	{ "cmd-list-eq", "exec \"$L\" --list=1 ./probe.musl hello" },
	{ "cmd-lp-words", "exec \"$L\" --library-path sub ./probe_sub.musl hello" },
	{ "cmd-lp-eq", "exec \"$L\" --library-path=sub ./probe_sub.musl hello" },
	{ "cmd-lp-eq-empty", "exec \"$L\" --library-path= ./probe_sub.musl hello" },
	{ "cmd-lp-over-env", "LD_LIBRARY_PATH=/nonexistent exec \"$L\" --library-path=sub ./probe_sub.musl hello" },
	{ "cmd-lp-glued", "exec \"$L\" --library-pathsub ./probe_sub.musl hello" },
	{ "cmd-lp-last", "exec \"$L\" --library-path" },
	{ "cmd-pre-words", "exec \"$L\" --preload ./libobpa.so ./probe.musl hello" },
	{ "cmd-pre-eq", "exec \"$L\" --preload=./libobpa.so ./probe.musl hello" },
	{ "cmd-pre-eq-list", "exec \"$L\" --preload='./libobpb.so ./libobpa.so' ./probe.musl hello" },
	{ "cmd-pre-eq-tab", "exec \"$L\" --preload=$'./libobpb.so\\t./libobpa.so' ./probe.musl hello" },
	{ "cmd-pre-over-env", "LD_PRELOAD=./libobpb.so exec \"$L\" --preload=./libobpa.so ./probe.musl hello" },
	{ "cmd-pre-byname", "exec \"$L\" --library-path=. --preload=libobpa.so ./probe.musl hello" },
	{ "cmd-pre-glued", "exec \"$L\" --preloadx ./probe.musl hello" },
	{ "cmd-argv0-words", "exec \"$L\" --argv0 custom ./probe.musl names" },
	{ "cmd-argv0-eq", "exec \"$L\" --argv0=custom ./probe.musl names" },
	{ "cmd-argv0-eq-empty", "exec \"$L\" --argv0= ./probe.musl hello" },
	{ "cmd-argv0-twice", "exec \"$L\" --argv0=one --argv0 two ./probe.musl hello" },
	{ "cmd-all-eq", "exec \"$L\" --library-path=sub --preload=./libobpa.so --argv0=x ./probe_sub.musl hello" },
	{ "cmd-all-words", "exec \"$L\" --library-path sub --preload ./libobpa.so --argv0 x -- ./probe_sub.musl hello" },
	{ "cmd-unknown", "exec \"$L\" --no-such-option ./probe.musl hello" },
	{ "cmd-single-dash", "exec \"$L\" -x ./probe.musl hello" },
	{ "cmd-none", "exec \"$L\"" },
	{ "cmd-options-only", "exec \"$L\" --argv0 x --" },
	{ "cmd-help", "exec \"$L\" --help" },
	{ "cmd-version", "exec \"$L\" --version" },
	{ "cmd-missing", "exec \"$L\" ./no-such-program" },
	{ "cmd-notelf", "exec \"$L\" ./notelf.so" },
	{ "cmd-dir", "exec \"$L\" ./sub" },
	{ "cmd-missing-lib", "exec \"$L\" ./probe_miss.musl hello" },
	{ "run-missing-syms", "exec ./symsprog.$X" },

	/* ---- ldd: the loader under several names */
	{ "ldd-ldd", "ln -s \"$L\" \"$T/ldd\" && exec \"$T/ldd\" ./probe_deps.musl" },
	{ "ldd-musl-ldd", "ln -s \"$L\" \"$T/musl-ldd\" && exec \"$T/musl-ldd\" ./probe_deps.musl" },
	{ "ldd-suffix", "ln -s \"$L\" \"$T/xldd\" && exec \"$T/xldd\" ./probe.musl" },
	{ "ldd-argv0", "exec -a ldd \"$L\" ./probe_deps.musl" },
	{ "ldd-argv0-path", "exec -a /usr/bin/musl-ldd \"$L\" ./probe.musl" },
	{ "ldd-not-suffix", "ln -s \"$L\" \"$T/lddx\" && exec \"$T/lddx\" ./probe.musl hello" },
	{ "ldd-upper", "ln -s \"$L\" \"$T/LDD\" && exec \"$T/LDD\" ./probe.musl hello" },
	{ "ldd-list-too", "ln -s \"$L\" \"$T/ldd\" && exec \"$T/ldd\" --list ./probe.musl" },
	{ "ldd-args", "ln -s \"$L\" \"$T/ldd\" && exec \"$T/ldd\" ./probe.musl hello more" },
	{ "ldd-lib", "ln -s \"$L\" \"$T/ldd\" && exec \"$T/ldd\" ./libob_a.so" },
	{ "ldd-missing-lib", "ln -s \"$L\" \"$T/ldd\" && exec \"$T/ldd\" ./probe_miss.musl" },
	{ "ldd-missing-syms", "ln -s \"$L\" \"$T/ldd\" && exec \"$T/ldd\" ./symsprog.musl" },
	{ "ldd-missing-lib-refs", "ln -s \"$L\" \"$T/ldd\" && exec \"$T/ldd\" ./libobmissref.so" },
	{ "cmd-list-missing-syms", "exec \"$L\" --list ./symsprog.musl" },
	{ "ldd-no-file", "ln -s \"$L\" \"$T/ldd\" && exec \"$T/ldd\" ./no-such-program" },
	{ "ldd-notelf", "ln -s \"$L\" \"$T/ldd\" && exec \"$T/ldd\" ./notelf.so" },
	{ "ldd-none", "ln -s \"$L\" \"$T/ldd\" && exec \"$T/ldd\"" },
	{ "ldd-preload", "ln -s \"$L\" \"$T/ldd\" && LD_PRELOAD=./libobpa.so exec \"$T/ldd\" ./probe.musl" },
	{ "ldd-library-path", "ln -s \"$L\" \"$T/ldd\" && LD_LIBRARY_PATH=sub exec \"$T/ldd\" ./probe_sub.musl" },

	/* ---- the LD_ variables musl reads (and one it does not) */
	{ "env-lp", "LD_LIBRARY_PATH=sub exec ./probe_sub.$X hello" },
	{ "env-lp-list", "LD_LIBRARY_PATH=/nonexistent:sub exec ./probe_sub.$X hello" },
	{ "env-lp-newline", "LD_LIBRARY_PATH=$'/nonexistent\\nsub' exec ./probe_sub.$X hello" },
	{ "env-lp-empty-elems", "LD_LIBRARY_PATH=::sub:: exec ./probe_sub.$X hello" },
	{ "env-lp-space", "LD_LIBRARY_PATH='/nonexistent sub' exec ./probe_sub.$X hello" },
	{ "env-lp-empty", "LD_LIBRARY_PATH= exec ./probe_sub.$X hello" },
	{ "env-lp-direct", "LD_LIBRARY_PATH=sub exec \"$L\" ./probe_sub.musl hello" },
	{ "env-pre", "LD_PRELOAD=./libobpa.so exec ./probe.$X hello" },
	{ "env-pre-space", "LD_PRELOAD='./libobpb.so ./libobpa.so' exec ./probe.$X hello" },
	{ "env-pre-colon", "LD_PRELOAD=./libobpb.so:./libobpa.so exec ./probe.$X hello" },
	{ "env-pre-tab", "LD_PRELOAD=$'./libobpb.so\\t./libobpa.so' exec ./probe.$X hello" },
	{ "env-pre-newline", "LD_PRELOAD=$'./libobpa.so\\n./libobpb.so' exec ./probe.$X hello" },
	{ "env-pre-mixed", "LD_PRELOAD=$' \\t:./libobpa.so:\\r\\v\\f ./libobpb.so :\\n' exec ./probe.$X hello" },
	{ "env-pre-twice", "LD_PRELOAD='./libobpa.so ./libobpa.so' exec ./probe.$X hello" },
	{ "env-pre-byname", "LD_LIBRARY_PATH=. LD_PRELOAD=libobpb.so exec ./probe.$X hello" },
	{ "env-pre-empty", "LD_PRELOAD= exec ./probe.$X hello" },
	{ "env-pre-missing", "LD_PRELOAD='./no-such.so ./libobpa.so' exec ./probe.$X hello" },
	{ "env-pre-deps", "LD_PRELOAD=./libob_a.so exec ./probe_deps.$X ctors" },
	{ "env-pre-direct", "LD_PRELOAD=./libobpa.so exec \"$L\" ./probe.musl hello" },
	{ "env-bind-now", "LD_BIND_NOW=1 exec ./probe.$X dl" },
	{ "env-debug", "LD_DEBUG=libs exec ./probe.$X hello" },
	{ "env-lp-fds", "LD_LIBRARY_PATH=/nonexistent:sub exec ./probe_sub.$X fds" },

	/* ---- the program's name: AT_EXECFN, argv[0], /proc/self/exe */
	{ "names-rel", "exec ./probe.$X names" },
	{ "names-abs", "exec \"$F/probe.$X\" names" },
	{ "names-path", "PATH=\"$F:$PATH\" exec probe.$X names" },
	{ "names-exec-a", "exec -a custom-name ./probe.$X names" },
	{ "names-symlink", "ln -s \"$F/probe.$X\" \"$T/link\" && exec \"$T/link\" names" },
	{ "names-dotdot", "cd sub && exec ../probe.$X names" },
	{ "names-proc-fd", "exec 3<probe.$X && exec -a custom-name /proc/self/fd/3 names" },
	{ "names-direct", "exec \"$L\" ./probe.musl names" },
	{ "names-direct-abs", "exec \"$L\" \"$F/probe.musl\" names" },
	{ "names-direct-argv0", "exec -a custom-loader \"$L\" --argv0=custom ./probe.musl names" },

	/* ---- dl_iterate_phdr and the link map */
	{ "list-start", "exec ./probe.$X list" },
	{ "list-deps", "exec ./probe_deps.$X list ./libobe.so ./libobsa.so ./libob_a.so" },
	{ "list-preload", "LD_PRELOAD=./libobpa.so exec ./probe.$X list ./libobtls.so" },
	{ "list-direct", "exec \"$L\" ./probe_deps.musl list ./libobsb.so" },

	/* ---- the dl* functions, their flags and dlerror's texts */
	{ "dl", "exec ./probe.$X dl" },
	{ "dl-direct", "exec \"$L\" ./probe.musl dl" },
	{ "dl-deps", "exec ./probe_deps.$X dl" },
	{ "promote", "exec ./probe.$X promote" },

	/* ---- default thread stack sizes */
	{ "stack", "exec ./probe.$X stack ./libobstack.so ./libobstack16.so" },
	{ "stack-prog", "exec ./probe_stack.$X stack ./libobstack.so" },
	{ "stack-needed", "exec ./probe_big.$X stack" },
	{ "stack-preload", "LD_PRELOAD=./libobstack.so exec ./probe.$X stack ./libobstack16.so" },
	{ "stack-direct", "exec \"$L\" ./probe_stack.musl stack" },

	/* ---- constructors and destructors, at start-up and in dlopen chains */
	{ "ctors-startup", "exec ./probe_deps.$X ctors" },
	{ "ctors-chain", "exec ./probe.$X ctors ./libob_a.so ./libobd.so ./libob_a.so" },
	{ "ctors-nested", "exec ./probe.$X ctors ./libobe.so ./libobf.so" },
	{ "ctors-nested-fail", "exec ./probe.$X ctors ./libobg.so ./libobmiss.so" },
	{ "ctors-mixed", "exec ./probe_deps.$X ctors ./libobe.so ./libobtls.so" },
	{ "ctors-close", "exec ./probe.$X ctors ./libob_a.so close:./libob_a.so ./libob_a.so close:./libobc.so" },
	{ "ctors-preload", "LD_PRELOAD='./libobpb.so ./libobpa.so' exec ./probe_deps.$X ctors ./libobpa.so" },
	{ "ctors-direct", "exec \"$L\" ./probe_deps.musl ctors ./libobd.so" },
	{ "ctors-exit-dlopen", "exec ./probe.$X ctors ./libobx.so ./libobd.so" },
	{ "ctors-exit-in-ctor", "exec ./probe_deps.$X ctors ./libobd.so ./libobexit.so" },
	/* constructors run outside the loader's lock */
	{ "ctors-threads", "exec ./probe.$X ctors ./libobthr.so ./libobthr.so ./libobf.so" },
	{ "ctors-threads-deps", "exec ./probe_deps.$X ctors ./libobthr.so" },
	{ "ctors-threads-direct", "exec \"$L\" ./probe.musl ctors ./libobthr.so" },
	/* a dl_iterate_phdr callback waiting for a thread in dlopen, dlsym, dladdr */
	{ "iterate-callback-waits", "exec ./probe.$X iterate-waits ./libobf.so" },
};
#define NCASES (sizeof cases / sizeof *cases)

/* ------------------------------------------------------ normalizing -- */

struct buf {
	char *s;
	size_t n, cap;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		cr_assert(b->s);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

/* Longest first: a path that contains another is replaced whole. */
struct subst {
	const char *from, *to;
};

static const char *const programs[] = { "probe_deps", "probe_stack", "probe_sub", "probe_miss",
	"probe_big", "symsprog", "probe" };

static char *normalize(const char *in, const struct subst *subs, size_t nsubs)
{
	struct buf b = { 0 };
	put(&b, "", 0);
	for (const char *p = in; *p;) {
		size_t best = 0, k = 0;
		for (size_t i = 0; i < nsubs; i++) {
			size_t n = strlen(subs[i].from);
			if (n > best && !strncmp(p, subs[i].from, n)) {
				best = n;
				k = i;
			}
		}
		if (best) {
			put(&b, subs[k].to, strlen(subs[k].to));
			p += best;
			continue;
		}
		/* addresses */
		if (p[0] == '0' && p[1] == 'x' && isxdigit((unsigned char)p[2])) {
			put(&b, "0xADDR", 6);
			for (p += 2; isxdigit((unsigned char)*p); p++)
				;
			continue;
		}
		/* probe.musl / probe.qb: the same program */
		int done = 0;
		for (size_t i = 0; i < sizeof programs / sizeof *programs && !done; i++) {
			size_t n = strlen(programs[i]);
			if (strncmp(p, programs[i], n) || p[n] != '.')
				continue;
			const char *s = p + n + 1;
			size_t m = !strncmp(s, "musl", 4) ? 4 : !strncmp(s, "qb", 2) ? 2 : 0;
			if (m && !isalnum((unsigned char)s[m]) && s[m] != '_') {
				put(&b, p, n);
				put(&b, ".X", 2);
				p = s + m;
				done = 1;
			}
		}
		if (!done)
			put(&b, p++, 1);
	}
	return b.s;
}

/* ------------------------------------------------------- observing -- */

struct kv {
	char *key, *val;
};

struct obs {
	struct kv *v;
	size_t n;
	char *out, *err;
};

static void add(struct obs *o, const char *key, const char *val)
{
	char k[256];
	snprintf(k, sizeof k, "%s", key);
	int seen = 0;
	for (size_t i = 0; i < o->n; i++) {
		const char *h = strchr(o->v[i].key, '#');
		size_t len = h ? (size_t)(h - o->v[i].key) : strlen(o->v[i].key);
		seen += len == strlen(key) && !strncmp(o->v[i].key, key, len);
	}
	if (seen)
		snprintf(k, sizeof k, "%s#%d", key, seen + 1);
	o->v = realloc(o->v, (o->n + 1) * sizeof *o->v);
	cr_assert(o->v);
	o->v[o->n].key = strdup(k);
	o->v[o->n].val = strdup(val);
	o->n++;
}

static const char *get(const struct obs *o, const char *key)
{
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->v[i].key, key))
			return o->v[i].val;
	return 0;
}

static void observe(struct obs *o, const struct arch *a, int qb, const struct ocase *c)
{
	const char *loader = qb ? a->qb : a->musl;
	char *t = make_tmpdir(NULL);
	char *fix = fixture_path(OBS_FIXTURES, a->name);
	char envL[4200], envX[16], envT[4200], envF[4200];
	snprintf(envL, sizeof envL, "L=%s", loader);
	snprintf(envX, sizeof envX, "X=%s", qb ? "qb" : "musl");
	snprintf(envT, sizeof envT, "T=%s", t);
	snprintf(envF, sizeof envF, "F=%s", fix);
	char *env[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", envL, envX, envT, envF, NULL };
	char *argv[] = { "/bin/bash", "-c", (char *)c->sh, NULL };
	struct run_opts ro = { .cwd = fix, .envp = env, .timeout_s = 30 };
	struct run_result r;
	cr_assert_eq(run_program(&r, argv, &ro), 0, "cannot run bash");

	/* either loader: a program names musl's in PT_INTERP, whichever runs it */
	char mreal[4096], qreal[4096];
	if (!realpath(a->musl, mreal))
		snprintf(mreal, sizeof mreal, "%s", a->musl);
	if (!realpath(a->qb, qreal))
		snprintf(qreal, sizeof qreal, "%s", a->qb);
	const struct subst subs[] = {
		{ fix, "$F" }, { t, "$T" }, { a->musl, "$L" }, { mreal, "$L" }, { a->qb, "$L" },
		{ qreal, "$L" },
	};
	o->out = normalize(r.out, subs, sizeof subs / sizeof *subs);
	o->err = normalize(r.err, subs, sizeof subs / sizeof *subs);
	o->v = 0;
	o->n = 0;
	char *save = 0, *copy = strdup(o->out);
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(0, "\n", &save)) {
		char *sp = strchr(l, ' ');
		if (sp)
			*sp = 0;
		add(o, l, sp ? sp + 1 : "");
	}
	free(copy);
	add(o, "status", run_describe(&r));
	struct buf e = { 0 };
	put(&e, "", 0);
	for (const char *p = o->err; *p; p++)
		put(&e, *p == '\n' ? "\\n" : p, *p == '\n' ? 2 : 1);
	add(o, "stderr", e.s);
	free(e.s);
	run_result_free(&r);
	char rm[4300];
	snprintf(rm, sizeof rm, "rm -rf '%s'", t);
	cr_assert_eq(system(rm), 0);
	free(t);
}

static void obs_free(struct obs *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->v[i].key);
		free(o->v[i].val);
	}
	free(o->v);
	free(o->out);
	free(o->err);
}

/* ----------------------------------------- the deliberate differences -- */

#define MAXPAT 128
static char *patterns[MAXPAT];
static size_t npatterns;

/* docs/DIFFERENCES.md, the list of deliberate differences from musl's
 * loader: in each item, the backquoted CASE:KEY patterns after
 * "Observed as". */
static void read_differences(void)
{
	if (npatterns)
		return;
	char *text = must_read_file(OBS_DIFFERENCES, NULL);
	const char *sec = text;
	const char *end = sec + strlen(sec);
	for (const char *item = sec; (item = strstr(item, "\n- ")) && item < end; item++) {
		const char *next = strstr(item + 1, "\n- ");
		if (!next || next > end)
			next = end;
		const char *at = strcasestr(item, "observed as");
		if (!at || at > next)
			continue;
		for (const char *q = at; (q = memchr(q, '`', (size_t)(next - q))); ) {
			const char *close = memchr(q + 1, '`', (size_t)(next - q - 1));
			if (!close)
				break;
			size_t n = (size_t)(close - q - 1);
			if (memchr(q + 1, ':', n) && npatterns < MAXPAT)
				patterns[npatterns++] = strndup(q + 1, n);
			q = close + 1;
		}
	}
	free(text);
	cr_assert_gt(npatterns, 0, "no \"Observed as `CASE:KEY`\" in %s", OBS_DIFFERENCES);
}

/* Does pattern p (ARCH/CASE:KEY or CASE:KEY) apply to arch a? The rest
 * of it in *rest. */
static int applies(const char *p, const char *a, const char **rest)
{
	const char *slash = strchr(p, '/'), *colon = strchr(p, ':');
	*rest = p;
	if (!slash || slash > colon)
		return 1;
	*rest = slash + 1;
	return (size_t)(slash - p) == strlen(a) && !strncmp(p, a, (size_t)(slash - p));
}

static int deliberate(const char *a, const char *fullkey, int *which)
{
	for (size_t i = 0; i < npatterns; i++) {
		const char *rest;
		if (applies(patterns[i], a, &rest) && !fnmatch(rest, fullkey, 0)) {
			*which = (int)i;
			return 1;
		}
	}
	return 0;
}

Test(observe, differences_name_cases_that_exist)
{
	read_differences();
	for (size_t i = 0; i < npatterns; i++) {
		const char *rest;
		applies(patterns[i], "", &rest);
		char cpat[256];
		snprintf(cpat, sizeof cpat, "%.*s", (int)(strchr(rest, ':') - rest), rest);
		int found = 0;
		for (size_t k = 0; k < NCASES && !found; k++)
			found = !fnmatch(cpat, cases[k].id, 0);
		cr_expect(found, "%s: `%s` names no case of the observables suite", OBS_DIFFERENCES, patterns[i]);
	}
	for (size_t k = 0; k < NCASES; k++)
		for (size_t j = 0; j < k; j++)
			cr_expect(strcmp(cases[j].id, cases[k].id), "case %s twice", cases[k].id);
}

/* A difference that only a process with a vDSO can show. */
static int about_vdso(const char *pattern)
{
	return strstr(pattern, "vdso") != NULL;
}

/* Does case id fall under the CASE part of one of the vDSO patterns? */
static int vdso_case(const char *id)
{
	for (size_t i = 0; i < npatterns; i++) {
		const char *rest;
		applies(patterns[i], "", &rest);
		char cpat[256];
		snprintf(cpat, sizeof cpat, "%.*s", (int)(strchr(rest, ':') - rest), rest);
		if (about_vdso(patterns[i]) && !fnmatch(cpat, id, 0))
			return 1;
	}
	return 0;
}

/* Every case under musl's loader and quickbind, key by key; with
 * vdso_only, only the cases and differences about the vDSO. Where the
 * architecture runs under qemu-user its processes have no vDSO: the
 * differences about it are left to the test that says it is skipped. */
static void compare(const struct arch *a, int vdso_only)
{
	if (!arch_configured(OBS_ARCHS, a->name) || !*a->qb)
		cr_skip_test("%s is not configured", a->name);
	read_differences();
	int no_vdso = !strcmp(a->name, "i386") && i386_exec_emulated();
	int seen[MAXPAT] = { 0 };
	size_t checked = 0;
	for (size_t k = 0; k < NCASES; k++) {
		const struct ocase *c = &cases[k];
		if (vdso_only && !vdso_case(c->id))
			continue;
		struct obs m, q;
		observe(&m, a, 0, c);
		observe(&q, a, 1, c);
		int bad = 0;
		for (int pass = 0; pass < 2; pass++) {
			const struct obs *o = pass ? &q : &m;
			for (size_t i = 0; i < o->n; i++) {
				const char *key = o->v[i].key;
				if (pass && get(&m, key))
					continue;
				const char *mv = get(&m, key), *qv = get(&q, key);
				char full[512];
				snprintf(full, sizeof full, "%s:%s", c->id, key);
				int same = mv && qv && !strcmp(mv, qv), w;
				checked++;
				if (deliberate(a->name, full, &w)) {
					seen[w] |= !same;
				} else if (!same) {
					bad++;
					cr_expect_fail("%s %s: musl: %s\n  quickbind: %s", a->name, full,
						       mv ? mv : "(absent)", qv ? qv : "(absent)");
				}
			}
		}
		if (bad)
			cr_log_warn("%s %s: %s\n--- musl:\n%s%s--- quickbind:\n%s%s", a->name, c->id, c->sh,
				    m.out, m.err, q.out, q.err);
		obs_free(&m);
		obs_free(&q);
	}
	for (size_t i = 0; i < npatterns; i++) {
		const char *rest;
		if (about_vdso(patterns[i]) ? no_vdso : vdso_only)
			continue;
		if (applies(patterns[i], a->name, &rest))
			cr_expect(seen[i], "%s: %s lists `%s` as a deliberate difference, but musl "
				  "and quickbind agree on it", a->name, OBS_DIFFERENCES, patterns[i]);
	}
	cr_log_info("%s: %zu cases, %zu keys compared", a->name, NCASES, checked);
}

Test(observe, x86_64, .timeout = 600)
{
	compare(&archs[0], 0);
}

Test(observe, i386, .timeout = 600)
{
	compare(&archs[1], 0);
}

Test(observe, i386_vdso, .timeout = 600)
{
	SKIP_IF_I386_EMULATED(1, "its processes have no vDSO");
	compare(&archs[1], 1);
}
