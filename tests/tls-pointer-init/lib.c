/* tls-pointer-init: a library needed at start whose .tdata holds a
 * relative (ls) and a symbolic (lsym: lib_global is preemptible) address. */
int lib_global = 7;
__thread const char *ls = "libstr";
__thread int *lsym = &lib_global;
const char *get(void){ return ls; }
int *get_sym(void){ return lsym; }
