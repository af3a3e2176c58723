int *once_addr(void);
int *user_sees_once(void) { return once_addr(); }
