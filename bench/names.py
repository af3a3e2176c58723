"""C++-mangled-style symbol names for the generated workloads.

Real office-suite libraries export names such as
_ZN3sfx14SfxViewFrame13GetDispatcherEv: long, and sharing long prefixes
(namespace, module, class).  Shared prefixes are what make string compares
in a hash chain expensive, so the generator reproduces them on purpose.
"""

NAMESPACES = ["office", "svx", "sfx2", "vcl", "sw", "sc", "sd", "basegfx",
              "comphelper", "cppu", "toolkit", "framework", "xmloff"]
CLASSES = ["ViewFrame", "Dispatcher", "ObjectShell", "ShapeImpl", "Window",
           "DocumentModel", "PropertySetInfo", "ContentHandler", "FrameListener",
           "AccessibleContext", "UndoManager", "StyleSheetPool", "ItemSet",
           "ModelController", "FilterDetect", "BasePrimitive2D"]
METHODS = ["getState", "setState", "execute", "dispose", "notifyEvent",
           "queryInterface", "getPropertyValue", "setPropertyValue",
           "initialize", "createInstance", "getTypes", "impl_update",
           "paintRegion", "getAccessibleChild", "selectEntry"]
# Parameter encodings that keep the name a valid C identifier.
PARAMS = ["Ev", "Ei", "Eii", "EPv", "ERKi", "Ej", "EPKc", "Eb"]


def _seg(s):
    return "%d%s" % (len(s), s)


def exported_name(rng, lib, k, lo=40, hi=60):
    """Name of exported function k of library lib: 40-60 chars, unique.

    Every name of one library shares "_ZN<ns><module>"; names of one class
    group (32 consecutive functions) also share the class segment.
    """
    ns = NAMESPACES[lib % len(NAMESPACES)]
    module = "m%03d" % lib
    cls = "%s%02d" % (CLASSES[(k // 32 + lib) % len(CLASSES)], k // 32)
    meth = METHODS[rng.randrange(len(METHODS))]
    par = PARAMS[rng.randrange(len(PARAMS))]
    head = "_ZN" + _seg(ns) + _seg(module) + _seg(cls)
    want = rng.randint(lo, hi)
    uniq = "_%d" % k
    # The method segment absorbs the padding; its length prefix may grow by
    # a digit, so compute it from the remaining room.
    room = want - len(head) - len(par)
    while len(meth) > 1 and len(_seg(meth + uniq)) > room:
        meth = meth[:-1]
    pad = ""
    while len(_seg(meth + pad + uniq)) < room:
        pad += "x"
    body = meth + pad + uniq
    return head + _seg(body) + par


def weak_name(w):
    """Name of the w-th vague ("inline template instance") symbol.

    The same names are defined weak in every library, as inline functions
    and template instances are in C++ code.
    """
    tmpl = "OUStringBuffer"
    meth = "appendAsciiInline%02d" % w
    return "_ZN3rtl" + _seg(tmpl) + _seg(meth) + "ERKNS_8OUStringE"


def entry_name(lib):
    return "qbb_lib%03d_entry" % lib
