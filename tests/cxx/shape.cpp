#include "shape.h"

#include <cstdio>

#include "announce.h"

static Announce announce("shape");

Shape::~Shape() {}

std::string Shape::name() const
{
	return "shape";
}

ShapeError::ShapeError(const std::string &what) : std::runtime_error(what) {}

ShapeError::~ShapeError() {}

std::string shape_describe(const Shape &s)
{
	char buf[64];
	std::snprintf(buf, sizeof buf, " %.2f", s.area());
	return s.name() + buf;
}

const std::type_info &shape_inline_error_type() { return typeid(InlineError); }
const std::type_info &shape_tag_type() { return typeid(Tag); }
int shape_counter() { return Counter<int>::bump(); }
int *shape_holder() { return &Holder<int>::value; }
int shape_calls() { return ++shared_calls(); }
