/* Stage 2: with the loader relocated, give it a thread pointer, find or
 * load the program, load every dependency, lay out TLS, relocate, and
 * hand the program's entry point back to the entry stub. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ext/ext.h"
#include "secureenv.h"

void _dlstart(void) hidden;

struct qb_entry { size_t entry, *sp; };

#define AUX_MAX 64
static struct dso ldso_dso, main_dso;

static void setup_ldso(const char *name)
{
	struct dso *p = &ldso_dso;
	const Ehdr *eh = (const Ehdr *)__ehdr_start;
	p->base = (unsigned char *)__ehdr_start;
	p->phdr = (Phdr *)(p->base + eh->e_phoff);
	p->phnum = eh->e_phnum;
	p->is_ldso = 1;
	p->name = (char *)name;
	p->shortname = "libc.so";
	const char *why = qb_dso_describe(p);
	if (why)
		qb_fatal("%s: %s", QB_LDSO_NAME, why);
	struct stat st;
	if (!stat(name, &st))
		qb_fileid_of(&st, &p->id);
	qb.ldso = p;
}

/* The kernel maps a program whatever its headers claim, even segments
 * past the end of its file (reading them raises SIGBUS). Before touching
 * the mapped headers, read them from the file and check them as if the
 * loader mapped the program (qb_check_phdrs), and check that the headers
 * the aux vector points at are the file's, in a readable segment, where
 * that segment is mapped. The load bias is the kernel's own (AT_ENTRY
 * less e_entry): PT_PHDR must agree with it. Without /proc the program is
 * trusted, as the kernel did. */
static const char *check_kernel_mapping(size_t *aux, size_t *bias)
{
	/* no O_CLOEXEC: closed before anything could exec */
	int fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0)
		return 0;
	const char *why = "program headers do not describe the mapped program";
	struct stat st;
	union { Ehdr eh; unsigned char b[1024]; } u;
	Phdr ph[64];
	size_t n = aux[AT_PHNUM], page = __libc.page_size, align;
	struct dso file = { .phdr = ph, .phnum = n };
	ssize_t got;
	if (fstat(fd, &st) || (got = pread(fd, u.b, sizeof u.b, 0)) < (ssize_t)sizeof u.eh)
		goto out;
	size_t fsize = st.st_size, phoff = u.eh.e_phoff, phsize = n * sizeof(Phdr);
	if (u.eh.e_phnum != n || u.eh.e_phentsize != sizeof(Phdr) || n > sizeof ph / sizeof *ph ||
	    phoff > fsize || phsize > fsize - phoff)
		goto out;
	if (phoff + phsize <= (size_t)got)
		memcpy(ph, u.b + phoff, phsize);
	else if (pread(fd, ph, phsize, phoff) != (ssize_t)phsize)
		goto out;
	size_t base = *bias = aux[AT_ENTRY] - u.eh.e_entry;
	for (size_t i = 0; i < n; i++)
		if (ph[i].p_type == PT_PHDR && aux[AT_PHDR] - ph[i].p_vaddr != base)
			goto out;
	const char *bad = qb_check_phdrs(&file, fsize, page, &align);
	if (bad || base + file.vmin < page) {
		/* page zero too, refused as when the loader maps a program */
		why = bad ? bad : "segments at address 0";
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_R) && phoff >= ph[i].p_offset &&
		    phoff + phsize <= ph[i].p_offset + ph[i].p_filesz &&
		    base + ph[i].p_vaddr + (phoff - ph[i].p_offset) == aux[AT_PHDR])
			why = 0;
out:
	close(fd);
	return why;
}

/* The program was mapped by the kernel: describe it from the aux vector. */
static void setup_kernel_main(size_t *aux, char *argv0)
{
	struct dso *p = &main_dso;
	size_t bias = 0;
	const char *why = check_kernel_mapping(aux, &bias);
	if (why)
		qb_fatal("%s: %s", argv0, why);
	p->base = (unsigned char *)bias;  /* PT_PHDR gives it too, and agrees */
	p->phdr = (Phdr *)aux[AT_PHDR];
	p->phnum = aux[AT_PHNUM];
	for (size_t i = 0; i < p->phnum; i++)
		if (p->phdr[i].p_type == PT_PHDR)
			p->base = (unsigned char *)(aux[AT_PHDR] - p->phdr[i].p_vaddr);
	p->name = argv0;
	p->is_main = 1;
	if ((why = qb_dso_describe(p)))
		qb_fatal("%s: %s", argv0, why);
}

/* The kernel-mapped program's name, as musl gives it: the path execve
 * was given (AT_EXECFN), which leads to the file whatever argv[0] says,
 * unless it is one of /proc's (fexecve), which would name nothing once
 * the descriptor is closed. */
static char *main_name(const size_t *aux, char *argv0)
{
	char *fn = (char *)aux[AT_EXECFN];
	return fn && strncmp(fn, "/proc/", 6) ? fn : argv0 ? argv0 : "";
}

/* The loader's name as the program asked for it (PT_INTERP), or null. */
static const char *interp_of(const struct dso *m)
{
	for (size_t k = 0; k < m->phnum; k++) {
		const Phdr *ph = &m->phdr[k];
		if (ph->p_type != PT_INTERP || !ph->p_filesz || !qb_in_image(m, ph->p_vaddr, ph->p_filesz))
			continue;
		const char *s = (const char *)(m->base + ph->p_vaddr);
		if (memchr(s, 0, ph->p_filesz))
			return s;
	}
	return 0;
}

#define SW_HELP(name, f, kind, help) "  " name "\t" help "\n"

static _Noreturn void usage(const char *self, int status)
{
	int fd = status ? 2 : 1;
	dprintf(fd,
		"quickbind dynamic linker (" QB_ARCH_NAME ")\n"
		"Usage: %s [--list] [--library-path[=]PATH] [--preload[=]LIBS] [--argv0[=]NAME] [--] PROGRAM [ARGS...]\n"
		"       %s --help | --version\n", self, self);
	if (!status)
		dprintf(fd, "Environment (ignored, and removed, in secure mode):\n%s",
			QB_SWITCHES(SW_HELP));
	_exit(status);
}

/* The value of option o (argv[*i] without its "--") when it is name:
 * "name=VALUE", or "name" followed by VALUE as the next argument, as
 * musl's loader takes both. */
static const char *opt_value(const char *o, const char *name, char **argv, int argc, int *i)
{
	size_t n = strlen(name);
	if (strncmp(o, name, n))
		return 0;
	if (o[n] == '=')
		return o + n + 1;
	return !o[n] && *i + 1 < argc ? argv[++*i] : 0;
}

/* The LD_ variables of the switch table (switches.h). */
#define SW_READ_STR(f, v) qb.env.f = v
#define SW_READ_FLAG(f, v) qb.env.f = !!(v)
#define SW_READ(name, f, kind, help) SW_READ_##kind(f, getenv(name));

static void read_switches(void)
{
	QB_SWITCHES(SW_READ)
	qb.unload = qb.env.dlclose && !strcmp(qb.env.dlclose, "unload") && qb_ext_unloads();
	if (qb.env.debug)
		qb_debug_setup(qb.env.debug, qb.env.debug_output);
}

/* Run as a command: parse options, map the program ourselves, rewrite
 * the aux vector so libc sees the program, and drop our own arguments.
 * Options are musl's: only "--" words are options (a word with one dash
 * is the program), and any name ending in "ldd" (Debian's musl-ldd, a
 * link named ldd) lists. */
static size_t *invoked_directly(size_t *sp, size_t *aux, size_t *auxv, int *list)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	const char *self = argv[0] ? argv[0] : QB_LDSO_NAME, *argv0 = 0, *v;
	size_t selflen = strlen(self);
	int i = 1;
	if (selflen >= 3 && !strcmp(self + selflen - 3, "ldd"))
		*list = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		const char *o = argv[i] + 2;
		if (!*o) { i++; break; }
		else if (!strcmp(o, "list")) *list = 1;
		else if (!strcmp(o, "help")) usage(self, 0);
		else if (!strcmp(o, "version")) {
			dprintf(1, "quickbind " QB_VERSION " (" QB_ARCH_NAME "), musl " QB_MUSL_VERSION " base\n");
			_exit(0);
		} else if ((v = opt_value(o, "library-path", argv, argc, &i))) qb.env.library_path = v;
		else if ((v = opt_value(o, "preload", argv, argc, &i))) qb.env.preload = v;
		else if ((v = opt_value(o, "argv0", argv, argc, &i))) argv0 = v;
		else {
			dprintf(2, "%s: unknown or incomplete option '%s'\n", self, argv[i]);
			usage(self, 127);
		}
	}
	if (i >= argc)
		usage(self, 127);

	const char *path = argv[i];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		qb_fatal("%s: cannot load %s: %m", self, path);
	const char *why;
	struct dso *p = qb_map_file(fd, 0, path, 1, &why);
	close(fd);
	if (!p)
		qb_fatal("%s: cannot load %s: %s", self, path, why);
	main_dso = *p;
	qb_free(p);
	p = &main_dso;

	const Ehdr *eh = 0;
	for (size_t k = 0; k < p->phnum; k++)
		if (p->phdr[k].p_type == PT_LOAD && !(p->phdr[k].p_offset)) {
			eh = (const Ehdr *)(p->base + p->phdr[k].p_vaddr);
			break;
		}
	if (!eh)
		qb_fatal("%s: %s: ELF header is not loaded", self, path);
	for (size_t *a = auxv; a[0]; a += 2) {
		switch (a[0]) {
		case AT_PHDR: a[1] = (size_t)p->phdr; break;
		case AT_PHNUM: a[1] = p->phnum; break;
		case AT_ENTRY: a[1] = (size_t)p->base + eh->e_entry; break;
		case AT_BASE: a[1] = (size_t)__ehdr_start; break;
		case AT_EXECFN: a[1] = (size_t)path; break;
		}
		if (a[0] < AUX_MAX)
			aux[a[0]] = a[1];
	}
	/* The program's argv starts at argv[i]; argc goes in the word before. */
	sp += i;
	sp[0] = argc - i;
	if (argv0)
		argv[i] = (char *)argv0;
	return sp;
}

/* ldd output, in musl's format: the loader first, then every object.
 * Like musl's, the loader goes by the name the program gives it in
 * PT_INTERP, or the name it was invoked by (in an image where the loader
 * is installed as musl's, ldd prints exactly what musl's prints), and
 * the libc line by the name the program asked for. */
static void list_objects(const char *argv0)
{
	const char *self = interp_of(qb.main) ? interp_of(qb.main) : argv0;
	dprintf(1, "\t%s (%p)\n", self, (void *)qb.ldso->base);
	for (struct dso *p = qb.head; p; p = p->next)
		if (p != qb.main)
			dprintf(1, "\t%s => %s (%p)\n", p->shortname, p == qb.ldso ? self : p->name, (void *)p->base);
}

/* Is name defined by an object other than the loader (malloc interposed)? */
static int replaced(const char *name)
{
	struct qb_symreq r;
	qb_symreq_init(&r, name, 0);
	struct symdef d = qb_lookup(&r, 0, 0);
	return d.dso && d.dso != qb.ldso;
}

hidden struct qb_entry qb_stage2(size_t *sp)
{
	size_t aux[AUX_MAX] = { 0 };
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1, **e = envp;
	while (*e)
		e++;
	size_t *auxv = (size_t *)(e + 1);
	for (size_t *a = auxv; a[0]; a += 2)
		if (a[0] < AUX_MAX)
			aux[a[0]] = a[1];

	__libc.auxv = auxv;
	__libc.page_size = aux[AT_PAGESZ];
	__hwcap = aux[AT_HWCAP];
	if (aux[AT_SYSINFO])
		__sysinfo = aux[AT_SYSINFO];
	__environ = envp;
	qb_tls_install(1);
	__init_ssp((void *)aux[AT_RANDOM]);

	qb.secure = aux[AT_SECURE] || aux[AT_UID] != aux[AT_EUID] || aux[AT_GID] != aux[AT_EGID];
	/* Secure (set-id) processes ignore every LD_ variable, and remove
	 * them and libc's unsafe ones from the environment (the stack moves
	 * up). LD_BIND_NOW needs no handling: every binding is made at load
	 * time. */
	if (qb.secure) {
		sp = qb_secure_env(sp);
		argv = (char **)(sp + 1);
		__environ = envp = argv + argc + 1;
	} else {
		read_switches();
	}

	int list = 0;
	const char *invoked_as = argv[0] ? argv[0] : QB_LDSO_NAME;
	if (aux[AT_ENTRY] == (size_t)_dlstart) {  /* run as a command */
		setup_ldso(qb_exe_path() ? qb_exe_path() : invoked_as);
		sp = invoked_directly(sp, aux, auxv, &list);
		qb.list_mode = list;
		argc = (int)sp[0];
		argv = (char **)(sp + 1);
	} else {
		setup_kernel_main(aux, main_name(aux, argv[0]));
		setup_ldso(interp_of(&main_dso) ? interp_of(&main_dso) : QB_LDSO_NAME);
	}
	struct dso *m = qb.main = &main_dso;
	m->is_main = 1;
	qb_dso_append(m);
	qb_tls_register(m);

	if (qb.env.preload)
		qb_load_preloads(qb.env.preload);
	qb_load_deps(m);
	if (!qb.ldso->prev && qb.tail != qb.ldso)
		qb_dso_append(qb.ldso);
	for (struct dso *p = qb.head; p; p = p->next)
		qb_global_join(p);
	qb_ext_scope_changed();
	qb.adds = qb.ndso;
	/* The list mode goes on after a library it could not load, to
	 * report the relocations that fail for want of it, as musl's ldd. */
	if (list)
		list_objects(invoked_as);
	qb_vdso_attach(aux[AT_SYSINFO_EHDR]);
	qb_tls_install(0);
	__init_ssp((void *)aux[AT_RANDOM]);

	qb_relocate_all();
	if (qb.failed)
		_exit(127);
	qb_tls_init_main();
	qb_debug_stats("start-up");
	if (list)
		_exit(0);
	__malloc_replaced = replaced("malloc");
	__aligned_alloc_replaced = replaced("aligned_alloc");
	qb_debug_init();
	for (struct dso *p = qb.head; p; p = p->next)
		qb_protect_relro(p);
	qb_queue_init(argc, argv, argv + argc + 1);

	if (aux[AT_ENTRY] < (size_t)m->base || !qb_in_code(m, aux[AT_ENTRY] - (size_t)m->base))
		qb_fatal("%s: entry point outside the code", m->name);
	qb.started = 1;
	return (struct qb_entry){ aux[AT_ENTRY], sp };
}
