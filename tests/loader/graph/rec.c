/* Needed by every node: records the order in which node constructors ran. */
static int order[1024];
static int count;
void graph_record_init(int node)
{
	if (count < 1024)
		order[count++] = node;
}
int graph_init_count(void) { return count; }
const int *graph_init_order(void) { return order; }
