#include "libsearch.h"

#include <string.h>

#define SEPS ":\n"

static int is_sep(char c)
{
	return c == ':' || c == '\n';
}

/* musl's rule: "lib" followed by one of these names and a dot. The
 * loader asks this of every DT_NEEDED entry: the fourth letter picks the
 * one name to compare with, and turns most names away. */
int qb_search_reserved(const char *name)
{
	const char *r;
	if (name[0] != 'l' || name[1] != 'i' || name[2] != 'b')
		return 0;
	switch (name[3]) {
	case 'c': r = "c."; break;
	case 'p': r = "pthread."; break;
	case 'r': r = "rt."; break;
	case 'm': r = "m."; break;
	case 'd': r = "dl."; break;
	case 'u': r = "util."; break;
	case 'x': r = "xnet."; break;
	default: return 0;
	}
	for (name += 3; *r && *name == *r; name++, r++)
		;
	return !*r;
}

/* Length of the token a '$' at s starts, 0 when it is not $ORIGIN or
 * ${ORIGIN}. Like musl, "$ORIGINx" is $ORIGIN followed by "x". */
static size_t origin_token(const char *s, size_t avail)
{
	if (avail >= 7 && !memcmp(s, "$ORIGIN", 7))
		return 7;
	if (avail >= 9 && !memcmp(s, "${ORIGIN}", 9))
		return 9;
	return 0;
}

/* musl ignores a whole list in which any '$' starts another token. */
static int list_usable(const char *list)
{
	size_t len = strlen(list);
	for (const char *d = list; (d = memchr(d, '$', len - (size_t)(d - list))); d++)
		if (!origin_token(d, len - (size_t)(d - list)))
			return 0;
	return 1;
}

long qb_expand_origin(const char *elem, size_t len, const char *obj_path,
	char *out, size_t outsz)
{
	const char *origin = ".";
	size_t olen = 1;
	const char *slash = strrchr(obj_path, '/');
	if (slash) {
		origin = obj_path;
		olen = (size_t)(slash - obj_path);
	}
	size_t n = 0;
	for (size_t i = 0; i < len;) {
		const char *add = elem + i;
		size_t addlen = 1, skip = 1;
		if (elem[i] == '$') {
			skip = origin_token(elem + i, len - i);
			if (!skip)
				return -1;
			add = origin;
			addlen = olen;
		}
		if (addlen >= outsz - n)
			return -1;
		memcpy(out + n, add, addlen);
		n += addlen;
		i += skip;
	}
	if (n >= outsz)
		return -1;
	out[n] = 0;
	return (long)n;
}

int qb_trusted_dir(const char *dir, size_t len)
{
	static const char *const trusted[] = { "/lib", "/usr/lib" };
	char norm[4096];
	size_t n = 0;
	if (!len || dir[0] != '/')
		return 0;
	/* Resolve "." and ".." by name, as glibc does: the directories are
	 * the system's own, so their symbolic links are trusted too. */
	for (size_t i = 0; i < len;) {
		while (i < len && dir[i] == '/')
			i++;
		size_t c = i;
		while (i < len && dir[i] != '/')
			i++;
		size_t clen = i - c;
		if (!clen || (clen == 1 && dir[c] == '.'))
			continue;
		if (clen == 2 && dir[c] == '.' && dir[c + 1] == '.') {
			while (n && norm[n - 1] != '/')
				n--;
			if (n)
				n--;
			continue;
		}
		if (n + 1 + clen >= sizeof norm)
			return 0;
		norm[n++] = '/';
		memcpy(norm + n, dir + c, clen);
		n += clen;
	}
	for (size_t k = 0; k < sizeof trusted / sizeof *trusted; k++) {
		size_t tl = strlen(trusted[k]);
		if (n >= tl && !memcmp(norm, trusted[k], tl) && (n == tl || norm[tl] == '/'))
			return 1;
	}
	return 0;
}

/* Append "/name" to the directory already in buf[0..dlen). */
static int add_name(const struct qb_search *s, size_t dlen, const char *name)
{
	size_t nlen = strlen(name);
	if (dlen + 1 + nlen >= s->bufsz)
		return 0;
	s->buf[dlen] = '/';
	memcpy(s->buf + dlen + 1, name, nlen + 1);
	return 1;
}

/* Search one list. 1 found, 0 not found, -1 the search must stop.
 * link is 0 for LD_LIBRARY_PATH and the system list, whose '$' are
 * literal, as in musl. */
static int search_list(const struct qb_search *s, const char *list,
	const struct qb_chain_link *link, enum qb_search_src src, const char *name)
{
	const char *cur = list;
	for (;;) {
		while (*cur && is_sep(*cur))
			cur++;
		if (!*cur)
			return 0;
		const char *elem = cur;
		while (*cur && !is_sep(*cur))
			cur++;
		size_t n = (size_t)(cur - elem);
		long dlen;
		enum qb_search_src from = src;
		if (link && memchr(elem, '$', n)) {
			from = QB_FROM_ORIGIN;
			dlen = qb_expand_origin(elem, n, link->path, s->buf, s->bufsz);
			if (dlen < 0)
				continue;
			/* The program's file name is chosen by whoever runs it
			 * (a hard link next to their own lib/): its origin
			 * counts only inside the system directories. A
			 * library's name came from a trusted search. */
			if (s->secure && (link->program ? !qb_trusted_dir(s->buf, (size_t)dlen)
			    : link->path[0] != '/'))
				continue;
		} else {
			if (n >= s->bufsz)
				continue;
			memcpy(s->buf, elem, n);
			dlen = (long)n;
		}
		/* A relative directory is relative to the caller's working
		 * directory: never trusted by a set-id process. */
		if (s->secure && s->buf[0] != '/')
			continue;
		if (!add_name(s, (size_t)dlen, name))
			continue;
		int r = s->try_file(s->ctx, s->buf, from);
		if (r)
			return r;
	}
}

int qb_search_library(const struct qb_search *s, const char *name)
{
	int r = 0;
	if (s->env_path)
		r = search_list(s, s->env_path, 0, QB_FROM_ENV, name);
	for (const void *obj = s->needed_by; !r && obj;) {
		struct qb_chain_link link = { 0, 0, 0 };
		const void *up = s->link(s->ctx, obj, &link);
		if (link.rpath && list_usable(link.rpath) &&
		    (link.path || !strchr(link.rpath, '$')))
			r = search_list(s, link.rpath, &link, QB_FROM_RPATH, name);
		obj = up;
	}
	const char *sys = r ? 0 : s->sys_path ? s->sys_path : s->sys_path_of ? s->sys_path_of() : 0;
	if (sys)
		r = search_list(s, sys, 0, QB_FROM_SYS, name);
	return r > 0;
}
