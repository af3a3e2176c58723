/* Threads and the loader, compared with musl's loader: dynamic TLS
 * (general-dynamic and TLSDESC) in threads older and newer than the
 * dlopen; 8 threads opening, querying and closing libraries at once; fork
 * while another thread is inside dlopen. */
#include <stdio.h>
#include "runtime/check.h"

Test(threads, dynamic_tls_in_old_and_new_threads, .timeout = 60)
{
	static const char *const libs[2] = {"libqrtlsgd.so", "libqrtlsdesc.so"};
	char expected[4096] = "";
	for (int i = 0; i < 7; i++)
		for (int l = 0; l < 2; l++)
			snprintf(expected + strlen(expected), sizeof expected - strlen(expected),
				 "%s thread %d (%s): initial values 1, aligned 1, dlsym agrees 1, "
				 "own values kept 1\n", libs[l], i,
				 i < 3 ? "before dlopen" : i == 3 ? "main" : "after dlopen");
	strcat(expected, "blocks distinct across threads 1\n");
	cr_assert_eq(qbr_expect("thr", ARGS("tls"), expected), 2, "both quickbind runs must pass");
}

Test(threads, eight_threads_dlopen_dlsym_dlclose, .timeout = 60)
{
	char expected[1024] = "";
	for (int i = 0; i < 8; i++)
		snprintf(expected + strlen(expected), sizeof expected - strlen(expected),
			 "thread %d failures 0 \n", i);
	cr_assert_eq(qbr_expect("thr", ARGS("stress"), expected), 2, "both quickbind runs must pass");
}

/* A child forked while the other thread ran a library's constructor
 * (outside the loader's lock, as musl runs them) cannot open that library:
 * under musl's loader and quickbind alike its dlopen says the state is
 * inconsistent due to the fork, which the child counts as the right
 * answer; anything else (a hang, another error, a wrong symbol) fails. */
Test(threads, fork_while_another_thread_is_in_dlopen, .timeout = 60)
{
	cr_assert_eq(qbr_expect("thr", ARGS("fork"),
				"children that could dlopen and dlsym (or were told of the fork): 30 of 30\n"),
		     2, "both quickbind runs must pass");
}
