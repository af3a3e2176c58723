/* Data objects an executable refers to directly: the executable gets copy
 * relocations and the library must then use the executable's copies. */
int cr_counter = 42;
char cr_text[32] = "library text";
struct pair { int a, b; } cr_pair = {1, 2};
/* A pointer the executable copies, and one into the copied table with an
 * addend (kept in the word itself on i386, whose relocations are REL). */
const char *cr_msg = "message from libcr";
int cr_table[4] = {1, 2, 3, 4};
int *const cr_third = &cr_table[2];

int cr_get(void) { return cr_counter; }
void cr_bump(void) { cr_counter++; }
const char *cr_text_get(void) { return cr_text; }
struct pair *cr_pair_get(void) { return &cr_pair; }
const char *cr_msg_get(void) { return cr_msg; }
int cr_read_third(void) { return *cr_third; }
int *cr_table_addr(void) { return cr_table; }
