/* The functions of libcn.so, by number: CN_ALL(M) expands M(100) ...
 * M(999). */
#define CN_NAME(n) cold_names_a_function_whose_name_is_long_enough_##n
#define CN_10(M, n) M(n##0) M(n##1) M(n##2) M(n##3) M(n##4) M(n##5) M(n##6) M(n##7) M(n##8) M(n##9)
#define CN_100(M, n) CN_10(M, n##0) CN_10(M, n##1) CN_10(M, n##2) CN_10(M, n##3) CN_10(M, n##4) \
	CN_10(M, n##5) CN_10(M, n##6) CN_10(M, n##7) CN_10(M, n##8) CN_10(M, n##9)
#define CN_ALL(M) CN_100(M, 1) CN_100(M, 2) CN_100(M, 3) CN_100(M, 4) CN_100(M, 5) CN_100(M, 6) \
	CN_100(M, 7) CN_100(M, 8) CN_100(M, 9)
