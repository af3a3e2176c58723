/* Two functions a run calls, with a mebibyte of code no run touches
 * between them (ws_cold: one return instruction after another), so that
 * the pages a run read are told apart from the file's. The fixture is
 * built with -fno-toplevel-reorder: the three stay in this order. */
int ws_first(void)
{
	return 1;
}

__asm__(".text\n"
	".globl ws_cold\n"
	".type ws_cold, @function\n"
	"ws_cold:\n"
	".fill 1048576, 1, 0xc3\n"
	".size ws_cold, 1048576\n");

int ws_last(void)
{
	return 2;
}
