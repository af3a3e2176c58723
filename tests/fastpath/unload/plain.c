int lib_fn(int x) { return x + 3; }
