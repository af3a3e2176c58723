const char *dup_fn(void) { return "w2"; }
const char *weak_fn(void) { return "w2-strong"; }
int weak_data = 2;
const char *w2_calls_dup(void) { return dup_fn(); }
const char *w2_calls_weak(void) { return weak_fn(); }
int w2_weak_data(void) { return weak_data; }
const char *only_w2(void) { return "only-w2"; }
