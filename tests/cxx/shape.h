// The types every fixture library shares. Shape and ShapeError have a key
// function in libshape, so their vtables and typeinfo live there alone;
// InlineError, Tag, Counter<T>, Holder<T> and shared_calls() have none:
// every library using them carries its own copy (vague linkage), and the
// loader must make all references agree on one.
#ifndef QB_CXX_SHAPE_H
#define QB_CXX_SHAPE_H

#include <exception>
#include <stdexcept>
#include <string>
#include <typeinfo>

struct Shape {
	virtual ~Shape();
	virtual double area() const = 0;
	virtual std::string name() const;
};

struct ShapeError : std::runtime_error {
	explicit ShapeError(const std::string &what);
	~ShapeError() override;
};

struct InlineError : std::exception {
	int code;
	explicit InlineError(int c) : code(c) {}
	const char *what() const noexcept override { return "InlineError"; }
};

struct Tag {
	int x;
};

template <class T> struct Counter {
	static inline T n = 0;
	static T bump() { return ++n; }
};

template <class T> struct Holder {
	static T value;
};
template <class T> T Holder<T>::value = T(100);

inline int &shared_calls()
{
	static int calls;
	return calls;
}

// libshape
std::string shape_describe(const Shape &s);
const std::type_info &shape_inline_error_type();
const std::type_info &shape_tag_type();
int shape_counter();
int *shape_holder();
int shape_calls();

#endif
