/* libqrs<ID>.so: small libraries the threaded tests open and close. */
int s_id(void) { return ID; }
