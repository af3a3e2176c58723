/* Secure mode (set-uid, set-gid, AT_SECURE): the variables that steer a
 * loader or libc are removed from the environment, not only ignored, so
 * that no child inherits them. A set-uid program that calls setuid(0)
 * and execs another program would otherwise hand that program, which is
 * no longer secure, the caller's LD_PRELOAD. */
#include <string.h>
#include "secureenv.h"
#include "switches.h"

#define SW_NAME(name, f, kind, help) name,

/* glibc 2.36's list (sysdeps/generic/unsecvars.h, plus GLIBC_TUNABLES and
 * MALLOC_CHECK_, which its tunables handle), then every variable of the
 * loader's switch table; every MALLOC_ variable goes too. */
static const char *const unsafe[] = {
	"GCONV_PATH", "GETCONF_DIR", "GLIBC_TUNABLES", "HOSTALIASES",
	"LD_AUDIT", "LD_DEBUG", "LD_DEBUG_OUTPUT", "LD_DYNAMIC_WEAK",
	"LD_HWCAP_MASK", "LD_LIBRARY_PATH", "LD_ORIGIN_PATH", "LD_PRELOAD",
	"LD_PROFILE", "LD_SHOW_AUXV", "LOCALDOMAIN", "LOCPATH", "NIS_PATH",
	"NLSPATH", "RESOLV_HOST_CONF", "RES_OPTIONS", "TMPDIR", "TZDIR",
	QB_SWITCHES(SW_NAME)
};

static int is_unsafe(const char *var)
{
	size_t n = strcspn(var, "=");
	if (n >= 7 && !memcmp(var, "MALLOC_", 7))
		return 1;
	for (size_t i = 0; i < sizeof unsafe / sizeof *unsafe; i++)
		if (strlen(unsafe[i]) == n && !memcmp(var, unsafe[i], n))
			return 1;
	return 0;
}

size_t *qb_secure_env(size_t *sp)
{
	size_t argc = sp[0];
	char **envp = (char **)(sp + 1 + argc + 1);
	size_t n = 0;
	while (envp[n])
		n++;
	size_t w = n;
	for (size_t i = n; i-- > 0;)
		if (!is_unsafe(envp[i]))
			envp[--w] = envp[i];
	if (!w)
		return sp;
	memmove(sp + w, sp, (argc + 2) * sizeof *sp);
	return sp + w;
}
