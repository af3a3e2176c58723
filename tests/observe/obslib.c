/* The observables suite's libraries, one source: -DNAME=x gives obs_x()
 * and obs_x_data, a constructor and a destructor that report themselves
 * (write(2): in the order they run, whatever stdio buffers), and with
 * -DOPENS="lib" a constructor that dlopens lib; -DSYM="v" defines obs_sym
 * returning v, -DPRE="v" obs_pre, -DUSER a use of obs_sym defined
 * elsewhere, -DTLS a thread-local variable. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define S2(x) #x
#define S(x) S2(x)
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

static void say(const char *what, const char *more)
{
	char b[256];
	int n = snprintf(b, sizeof b, "ev %s %s%s%s\n", what, S(NAME), more ? " " : "", more ? more : "");
	if (write(1, b, (size_t)n) < 0)
		_exit(3);
}

__attribute__((constructor)) static void ctor(void)
{
	say("ctor", 0);
#ifdef OPENS
	void *h = dlopen(OPENS, RTLD_NOW);
	say("ctor-dlopen", h ? "ok" : dlerror());
#endif
}

__attribute__((destructor)) static void dtor(void)
{
	say("dtor", 0);
}

int CAT(CAT(obs_, NAME), _data) = 1;

const char *CAT(obs_, NAME)(void)
{
	return S(NAME);
}

#ifdef SYM
const char *obs_sym(void)
{
	return SYM;
}
#endif

#ifdef PRE
const char *obs_pre(void)
{
	return PRE;
}
#endif

#ifdef USER
const char *obs_sym(void);
const char *obs_user(void)
{
	return obs_sym();
}
#endif

#ifdef TLS
__thread int obs_tls_var = 5;
int obs_tls_get(void)
{
	return obs_tls_var;
}
#endif

#ifdef UNDEF_DATA
extern int obs_undefined_var;
int obs_undef_get(void)
{
	return obs_undefined_var;
}
#endif

#ifdef UNDEF_FN
int obs_undefined_fn(void);
int obs_undef_call(void)
{
	return obs_undefined_fn();
}
#endif
