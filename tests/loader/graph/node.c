/* One node of the generated library graph, compiled with -DNODE=n and
 * -DDEPS='D(a) D(b)...' (the nodes this one needs). Each node's value mixes
 * its number with its dependencies' values (memoised: diamonds would
 * otherwise make the call count exponential), reaches its dependencies through
 * a table of pointers (symbolic data relocations), and records when its
 * constructor ran, so the program's checksum covers calls, data relocations
 * and initialisation order. */
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define FN(n) CAT(graph_node_, n)

void graph_record_init(int node);

#define D(n) unsigned long long FN(n)(void);
DEPS
#undef D

#define D(n) FN(n),
static unsigned long long (*const deps[])(void) = {DEPS 0};
#undef D

__attribute__((constructor)) static void init(void) { graph_record_init(NODE); }

unsigned long long FN(NODE)(void)
{
	static unsigned long long memo;
	if (!memo) {
		unsigned long long h = 1469598103934665603ull ^ (unsigned long long)NODE;
		for (unsigned i = 0; deps[i]; i++)
			h = (h ^ deps[i]()) * 1099511628211ull;
		memo = h | 1;
	}
	return memo;
}
