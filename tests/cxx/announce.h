// A static object whose constructor and destructor say when they run.
#ifndef QB_CXX_ANNOUNCE_H
#define QB_CXX_ANNOUNCE_H

#include <cstdio>

struct Announce {
	const char *who;
	explicit Announce(const char *w) : who(w) { std::printf("ctor %s\n", who); }
	~Announce() { std::printf("dtor %s\n", who); }
};

#endif
