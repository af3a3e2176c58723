/* linkopt's exit statuses and its one form of error message, for every
 * layer that reports to the user (report.c). */
#ifndef LINKOPT_REPORT_H
#define LINKOPT_REPORT_H

/* exit statuses */
#define LO_OK    0
#define LO_STALE 1 /* --check found stale bindings */
#define LO_ERR   2 /* bad input or I/O failure */

/* Prints "linkopt: FILE: reason" and returns LO_ERR. */
int report(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
