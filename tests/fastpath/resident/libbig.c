/* Enough exported functions that linkopt's segment spans many pages:
 * touching any of them maps its neighbours too (the kernel's fault-around),
 * so only pages given back stay out of the resident set. */
#define F(n) int big_##n(void) { return n; }
#define F10(n) F(n##0) F(n##1) F(n##2) F(n##3) F(n##4) F(n##5) F(n##6) F(n##7) F(n##8) F(n##9)
#define F100(n) F10(n##0) F10(n##1) F10(n##2) F10(n##3) F10(n##4) F10(n##5) F10(n##6) \
	F10(n##7) F10(n##8) F10(n##9)
F100(1) F100(2) F100(3) F100(4) F100(5) F100(6) F100(7) F100(8) F100(9)
