/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <string.h>

#include "load.h"

extern const struct load load_no_load;
extern const struct load load_fork_load;
extern const struct load load_forkbomb;
extern const struct load load_sleepers;
extern const struct load load_cpu_load;
extern const struct load load_process_load;
extern const struct load load_io_load;
extern const struct load load_read_load;
extern const struct load load_mem_load;
extern const struct load load_list_load;
extern const struct load load_exec_load;

/* A new load is one file in loads/ and one line here. */
const struct load *const load_registry[] = {
	&load_no_load,
	&load_fork_load,
	&load_forkbomb,
	&load_sleepers,
	&load_cpu_load,
	&load_process_load,
	&load_io_load,
	&load_read_load,
	&load_mem_load,
	&load_list_load,
	&load_exec_load,
	NULL,
};

const struct load *
load_find(const char *name)
{
	for (size_t i = 0; load_registry[i]; i++)
		if (strcmp(load_registry[i]->name, name) == 0)
			return load_registry[i];
	return NULL;
}

size_t
load_nopts(const struct load *l)
{
	size_t n = 0;

	while (l->opts && l->opts[n].key)
		n++;
	return n;
}

size_t
load_ncounters(const struct load *l)
{
	size_t n = 0;

	while (l->counters && l->counters[n].id)
		n++;
	return n;
}

int
load_opt_index(const struct load *l, const char *key)
{
	for (size_t i = 0; l->opts && l->opts[i].key; i++)
		if (strcmp(l->opts[i].key, key) == 0)
			return (int)i;
	return -1;
}
