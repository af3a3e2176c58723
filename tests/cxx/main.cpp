// The C++ scenarios, one per argument; every line printed is checked
// against a fixed expectation by tests/test_cxx.c and against musl's loader.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "announce.h"
#include "circle.h"
#include "square.h"

static Announce announce("main");

namespace {

struct Ring : Circle {
	Ring() : Circle(2) {}
	std::string name() const override { return "ring"; }
};

void vtables()
{
	Shape *c = make_circle(1), *s = make_square(2);
	std::printf("%s\n", shape_describe(*c).c_str());
	std::printf("%s\n", shape_describe(*s).c_str());
	std::printf("%s\n", shape_describe(Ring()).c_str());
	std::printf("base name %s\n", c->Shape::name().c_str());
	delete c;
	delete s;
}

void exceptions()
{
	for (int k = 0; k < 4; k++) {
		try {
			circle_throw(k);
		} catch (const std::out_of_range &e) {
			std::printf("out_of_range: %s\n", e.what());
		} catch (const ShapeError &e) {
			std::printf("ShapeError: %s\n", e.what());
		} catch (const InlineError &e) {
			std::printf("InlineError: %d\n", e.code);
		} catch (int i) {
			std::printf("int: %d\n", i);
		}
	}
	try {
		circle_throw(1);
	} catch (const std::exception &e) {
		std::printf("as std::exception: %s\n", e.what());
	}
	try {
		circle_rethrow();
	} catch (const std::out_of_range &e) {
		std::printf("rethrown: %s\n", e.what());
	}
	std::exception_ptr p = circle_capture();
	try {
		std::rethrow_exception(p);
	} catch (const ShapeError &e) {
		std::printf("exception_ptr: %s\n", e.what());
	}
	std::printf("caught in libsquare: %d %d\n", square_catch(circle_throw, 2),
		    square_catch(circle_throw, 0));
}

void rtti()
{
	Shape *c = make_circle(1), *s = make_square(1);
	std::printf("circle_is_circle %d %d\n", circle_is_circle(c), circle_is_circle(s));
	std::printf("dynamic_cast %d %d\n", dynamic_cast<Circle *>(c) != nullptr,
		    dynamic_cast<Circle *>(s) != nullptr);
	std::printf("typeid %s %d %d\n", typeid(*c).name(), typeid(*c) == typeid(Circle),
		    typeid(*s) == typeid(Circle));
	const std::type_info *ie = &typeid(InlineError), *tag = &typeid(Tag);
	std::printf("one InlineError typeinfo %d\n", ie == &shape_inline_error_type() &&
		    ie == &circle_inline_error_type() && ie == &square_inline_error_type());
	std::printf("one Tag typeinfo %d\n", tag == &shape_tag_type() && tag == &circle_tag_type() &&
		    tag == &square_tag_type());
	delete c;
	delete s;
}

void vague()
{
	Counter<int>::bump();
	shape_counter();
	circle_counter();
	square_counter();
	std::printf("Counter<int>::n %d\n", Counter<int>::n);
	Holder<int>::value += 4;
	std::printf("one Holder<int>::value %d value %d\n", &Holder<int>::value == shape_holder() &&
		    shape_holder() == circle_holder() && circle_holder() == square_holder(),
		    *square_holder());
	++shared_calls();
	shape_calls();
	circle_calls();
	std::printf("shared_calls %d\n", square_calls());
}

void tls()
{
	circle_tl_touch(0);
	std::thread t([] { circle_tl_touch(1); });
	t.join();
	std::printf("joined\n");
	std::thread u([] { std::printf("untouched thread\n"); });
	u.join();
}

template <class F> F sym(void *h, const char *name)
{
	void *p = dlsym(h, name);
	if (!p) {
		std::printf("dlsym %s: %s\n", name, dlerror());
		std::exit(1);
	}
	F f;
	std::memcpy(&f, &p, sizeof f);
	return f;
}

void plugin(const char *argv0)
{
	std::string path(argv0);
	path = path.substr(0, path.rfind('/') + 1) + "libplugin.so";
	void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		std::printf("dlopen: %s\n", dlerror());
		std::exit(1);
	}
	Shape *t = sym<Shape *(*)()>(h, "plugin_make")();
	std::printf("%s typeid %s circle %d\n", shape_describe(*t).c_str(), typeid(*t).name(),
		    dynamic_cast<Circle *>(t) != nullptr);
	delete t;
	try {
		sym<void (*)()>(h, "plugin_throw")();
	} catch (const std::runtime_error &e) {
		std::printf("plugin threw: %s\n", e.what());
	}
	try {
		sym<void (*)()>(h, "plugin_throw_inline")();
	} catch (const InlineError &e) {
		std::printf("plugin threw InlineError %d\n", e.code);
	}
	Counter<int>::bump();
	std::printf("Counter<int>::n %d\n", sym<int (*)()>(h, "plugin_counter")());
	std::printf("one InlineError typeinfo %d\n",
		    sym<const std::type_info *(*)()>(h, "plugin_inline_error_type")() == &typeid(InlineError));
	std::printf("one Holder<int>::value %d\n", sym<int *(*)()>(h, "plugin_holder")() == &Holder<int>::value);
}

}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		std::printf("== %s\n", argv[i]);
		if (!std::strcmp(argv[i], "none"))
			;
		else if (!std::strcmp(argv[i], "vtables"))
			vtables();
		else if (!std::strcmp(argv[i], "exceptions"))
			exceptions();
		else if (!std::strcmp(argv[i], "rtti"))
			rtti();
		else if (!std::strcmp(argv[i], "vague"))
			vague();
		else if (!std::strcmp(argv[i], "tls"))
			tls();
		else if (!std::strcmp(argv[i], "plugin"))
			plugin(argv[0]);
		else
			return 2;
	}
	std::printf("main returns\n");
	return 0;
}
