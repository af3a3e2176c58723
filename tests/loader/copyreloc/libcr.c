/* Data objects an executable refers to directly: the executable gets copy
 * relocations and the library must then use the executable's copies. */
int cr_counter = 42;
char cr_text[32] = "library text";
struct pair { int a, b; } cr_pair = {1, 2};

int cr_get(void) { return cr_counter; }
void cr_bump(void) { cr_counter++; }
const char *cr_text_get(void) { return cr_text; }
struct pair *cr_pair_get(void) { return &cr_pair; }
