/* Linked into the sanitizer build of linkopt and its tests: any report
 * ends the process with SIGABRT, which every suite sees as a crash (an
 * exit status could pass for one of linkopt's own). linkopt is a
 * short-lived tool: leaks are not what this build looks for. */
const char *__asan_default_options(void);
const char *__ubsan_default_options(void);
const char *__asan_default_options(void)
{
	return "abort_on_error=1:detect_leaks=0";
}
const char *__ubsan_default_options(void)
{
	return "abort_on_error=1:halt_on_error=1:print_stacktrace=1";
}
