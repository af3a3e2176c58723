/* One library of a chain: FN returns NEXT() + 1 (the last one returns 1). */
#ifdef NEXT
int NEXT(void);
#endif
int FN(void)
{
#ifdef NEXT
	return NEXT() + 1;
#else
	return 1;
#endif
}
