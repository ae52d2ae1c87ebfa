/*
 * Reading results.jsonl: every line that is one whole JSON object is
 * handed on; a line that is not (cut short by a crash or a full disk,
 * or damaged) is skipped with a warning naming the file and the line,
 * and every other line is still read.
 */
#ifndef CONTEST_JSONL_H
#define CONTEST_JSONL_H

#include <stddef.h>

/* 1 if s[0..len) is exactly one JSON object (blanks around allowed). */
int	jsonl_is_object(const char *s, size_t len);

typedef int (*jsonl_fn)(const char *line, size_t len, unsigned long lineno,
    void *arg);

/*
 * Call fn for each whole object line of path, in order (fn returning
 * non-zero stops the read).  Warnings go to stderr as
 * "contest: PATH:LINE: ...".  Returns the lines handed on, or -1 with
 * errno if the file cannot be read; *skipped counts the others.
 */
long	jsonl_read(const char *path, jsonl_fn fn, void *arg,
	    unsigned long *skipped);

#endif
