/* Data the program copies into itself (R_386_COPY when it is not PIE). */
int cr_table[4] = { 1, 2, 3, 4 };
/* R_386_32 against cr_table with an addend of 8 in the word itself. */
int *const cr_third = &cr_table[2];
const char *cr_msg = "message from libcr";
int cr_get(int i) { return cr_table[i]; }
const char *cr_get_msg(void) { return cr_msg; }
int *cr_where(void) { return cr_table; }
int cr_read_third(void) { return *cr_third; }
