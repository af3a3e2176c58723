/* The dl* API: dlopen modes, scopes, failure rollback, dlsym, dladdr,
 * dlinfo, dlerror, dl_iterate_phdr, compared with musl's loader; dlclose
 * unloading (LD_DLCLOSE=unload), which musl's loader does not do, checked
 * on quickbind. */
#include "runtime/check.h"

Test(dl, dependency_tree_constructors_once_in_dependency_order)
{
	cr_assert_eq(qbr_expect("rt", ARGS("deps"),
		   "ctor dep\nctor mid\nctor top\ntop loaded\ntop_value 112\n"
		   "same handle twice 1\nmid loaded with top, no constructor again 1\n"
		   "dep symbol through top handle 1\ntop symbol through mid handle 0\n"
		   "local top not in default scope 1\ndtor top\ndtor mid\ndtor dep\n"), 2, "both quickbind runs must pass");
}

Test(dl, lazy_and_now)
{
	cr_assert_eq(qbr_expect("rt", ARGS("lazy"),
		   "glob lazy loaded\nuser lazy loaded\nuser_call 43\n"
		   "userdata now loaded\nuserdata_call 44\n"), 2, "both quickbind runs must pass");
}

Test(dl, local_symbols_hidden_from_later_libraries_global_ones_seen)
{
	cr_assert_eq(qbr_expect("rt", ARGS("scope"),
		   "glob local loaded\ndefault sees local glob 0\nhandle sees its own symbol 42\n"
		   "user with local glob: error names it\npromoted, same handle 1\n"
		   "default sees global glob 1\nuser with global glob: loaded\nuser_call 43\n"), 2, "both quickbind runs must pass");
}

Test(dl, noload)
{
	cr_assert_eq(qbr_expect("rt", ARGS("noload"),
		   "noload before 0\nnoload error set\nnot loaded by noload 1\nunload ctor 1\n"
		   "noload after, same handle 1\nunload dtor\n"), 2, "both quickbind runs must pass");
}

Test(dl, nodelete_survives_dlclose)
{
	cr_assert_eq(qbr_expect("rt", ARGS("nodelete"),
		   "unload ctor 1\nunload_fn 5\ndlclose 0\nstill loaded 1\nreopen same 1\n"
		   "exiting\nunload dtor\n"), 2, "both quickbind runs must pass");
}

Test(dl, dlopen_null_is_the_global_scope)
{
	cr_assert_eq(qbr_expect("rt", ARGS("self"),
		   "self handle 1, twice same 1\nexe symbol 1\nlibc symbol 1\n"
		   "local lib through self 0\nglobal lib through self 1\n"), 2, "both quickbind runs must pass");
}

Test(dl, failure_leaves_nothing_loaded_and_a_message)
{
	cr_assert_eq(qbr_expect("rt", ARGS("fail"),
		   "bad: error names it\nerror cleared after read 1\n"
		   "objects unchanged 1, names unchanged 1\nbaddep left behind 0\n"
		   "bad lazy: error names it\nneedsgone: error names it\nmissing: error names it\n"
		   "objects unchanged 1, names unchanged 1\nbaddep left behind 0\n"
		   "ctor baddep\nbaddep alone: 9\n"), 2, "both quickbind runs must pass");
}

Test(dl, dlsym_handles_and_errors)
{
	cr_assert_eq(qbr_expect("rt", ARGS("dlsym"),
		   "ctor dep\nctor mid\nctor top\nmissing symbol 0: error names it\ndefault libc 1\n"
		   "bad handle 0: error\ndlclose bad handle 1: error\nnext from exe, local lib 0\n"
		   "dtor top\ndtor mid\ndtor dep\n"), 2, "both quickbind runs must pass");
}

Test(dl, rtld_next_interposer_wraps_the_next_definition)
{
	cr_assert_eq(qbr_expect("next", NULL,
		   "target(5) = 110\nnext from the program: 110\ndefault is the wrapper 1\n"), 2, "both quickbind runs must pass");
}

Test(dl, dladdr_and_link_map)
{
	cr_assert_eq(qbr_expect("rt", ARGS("dladdr"),
		   "ctor dep\ndladdr fn 1 libqrdep.so dep_value saddr 1\ndlinfo linkmap 0\n"
		   "linkmap name libqrdep.so, fbase is l_addr 1\ndladdr data 1 dep_array saddr 1\n"
		   "dladdr local fn 1 libqrdep.so (null)\ndladdr unmapped 0\ndladdr exe 1 rt_exported\n"
		   "linkmap chain from head reaches it 1\ndtor dep\n"), 2, "both quickbind runs must pass");
}

Test(dl, dlerror_is_per_thread)
{
	cr_assert_eq(qbr_expect("rt", ARGS("dlerror"),
		   "thread sees no error, own error names its library\n"
		   "main: error names it\nmain after read: no error\n"), 2, "both quickbind runs must pass");
}

Test(dl, dl_iterate_phdr_adds_and_tls_fields)
{
	cr_assert_eq(qbr_expect("rt", ARGS("iterate"),
		   "adds grew 1, one more object 1, names libqrtlsgd.so\nreopen: objects same 1\n"
		   "tls lib seen 1, modid nonzero 1, tv in data 1\n"
		   "other thread: same modid 1, other block 1\nctor dep\n"
		   "no-tls lib: modid 0, data 0\ndlpi_addr and PT_DYNAMIC match the link map 1\n"
		   "dtor dep\n"), 2, "both quickbind runs must pass");
}

/* musl's dlinfo knows only RTLD_DI_LINKMAP; these are glibc's requests. */
Test(dl, dlinfo_origin_and_tls)
{
	cr_assert_eq(qbr_expect_qb("rt", ARGS("dlinfo", lt_fixtures()), NULL,
		      "ctor dep\norigin 0 is the directory\nmodid without tls 0 0\n"
		      "tls data without tls 0 0\nmodid with tls nonzero 1, tv in block 1\n"
		      "bad request -1: error\ndtor dep\n"), 2, "both quickbind runs must pass");
}

/* By default dlclose drops the handle and nothing else, as musl's: every
 * object stays loaded with its state and its destructors run at exit.
 * The output is musl's but for dlpi_adds, which counts objects loaded, as
 * glibc does (musl counts dlopen calls). */
Test(dl, dlclose_keeps_objects_as_musl)
{
	cr_assert_eq(qbr_expect_qb("rt", ARGS("unload"), NULL,
		      "ctor dep\n""ctor mid\n""ctor top\n""adds grew by 3, reopen adds 0\n""dlclose 0\n""loaded after close: top 1 mid 1 dep 1\n""subs grew by 0, objects back 0\n""unload ctor 1\n""reopened unload_fn 5\n""two opens, one close: loaded 1\n""both closed: loaded 1\n""closed handle again: 0\n""tls lib stays 1\n""atexit lib stays 1\n""bound-to lib stays 1, user_call 43\n""exiting\n""atexit handler\n""unload dtor\n""dtor top\n""dtor mid\n""dtor dep\n"), 2, "both quickbind runs must pass");
}

/* With LD_DLCLOSE=unload quickbind unloads at dlclose what nothing
 * references: destructors run then, a reopen constructs a fresh copy,
 * dlpi_subs counts the objects gone; objects with TLS, with exit
 * handlers in their code, or bound to from outside their dependency tree
 * stay. */
Test(dl, dlclose_unloads_unreferenced_objects)
{
#ifdef QB_TEST_NOEXT
	cr_skip_test("unloading (LD_DLCLOSE=unload) is an extension; this loader has none");
#endif
	cr_assert_eq(qbr_expect_qb("rt", ARGS("unload"), ARGS("LD_LIBRARY_PATH=.", "LD_DLCLOSE=unload"),
		      "ctor dep\nctor mid\nctor top\nadds grew by 3, reopen adds 0\n"
		      "dtor top\ndtor mid\ndtor dep\ndlclose 0\n"
		      "loaded after close: top 0 mid 0 dep 0\nsubs grew by 3, objects back 1\n"
		      "unload ctor 1\nunload dtor\nunload ctor 1\nreopened unload_fn 5\n"
		      "two opens, one close: loaded 1\nunload dtor\nboth closed: loaded 0\n"
		      "closed handle again: 1\ntls lib stays 1\natexit lib stays 1\n"
		      "bound-to lib stays 1, user_call 43\nexiting\natexit handler\n"), 2, "both quickbind runs must pass");
}
