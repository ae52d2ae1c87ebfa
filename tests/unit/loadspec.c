/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "loadspec.h"
#include "tap.h"

static void
good(const char *arg, const char *canon)
{
	struct loadspec ls;
	char err[256] = "";
	int r = loadspec_parse(arg, &ls, err, sizeof err);
	ok(r == 0 && strcmp(ls.name, canon) == 0, "'%s' is %s %s", arg, canon, err);
}

static void
bad(const char *arg, const char *needle)
{
	struct loadspec ls;
	char err[256] = "";
	int r = loadspec_parse(arg, &ls, err, sizeof err);
	ok(r < 0 && strstr(err, needle) && !strchr(err, '\n'),
	    "'%s' refused: %s", arg, err);
}

static void
str_opts(void)
{
	struct loadspec ls;
	char err[256], v[LOAD_STR_MAX];

	ok(loadspec_parse("exec_load:cmd=tar cf - /usr,x=1", &ls, err, sizeof err) == 0 &&
	    strcmp(loadspec_str(&ls, 0), "tar cf - /usr,x=1") == 0 &&
	    strcmp(ls.name, "exec_load:cmd=tar cf - /usr,x=1") == 0,
	    "a command keeps its commas and '='");
	ok(loadspec_parse("io_load:size=4", &ls, err, sizeof err) == 0 &&
	    loadspec_str(&ls, 0) == NULL &&
	    strcmp(loadspec_value(&ls, 0, "/res", v, sizeof v), "/res") == 0,
	    "a workdir default is the results dir, not a stored value");
	ok(loadspec_parse("io_load:dir=/tmp,size=4", &ls, err, sizeof err) == 0 &&
	    strcmp(loadspec_str(&ls, 0), "/tmp") == 0 && ls.opt[1] == 4,
	    "a text option ends at a comma when it is not a command");
	ok(loadspec_parse("list_load", &ls, err, sizeof err) == 0 &&
	    strcmp(loadspec_str(&ls, 0), "/usr") == 0, "a text default is kept");
	ok(loadspec_parse("cpu_load", &ls, err, sizeof err) == 0 &&
	    ls.opt[0] == (long long)load_ncpu(), "cpu_load's n is the online CPUs");
	ok(loadspec_parse("process_load", &ls, err, sizeof err) == 0 &&
	    ls.opt[0] == 4LL * load_ncpu(), "process_load's n is 4 per CPU");
	char longv[LOAD_STR_MAX + 32];
	memset(longv, 'a', sizeof longv - 1);
	longv[sizeof longv - 1] = '\0';
	memcpy(longv, "list_load:dir=", 14);
	ok(loadspec_parse(longv, &ls, err, sizeof err) < 0 && strstr(err, "too long"),
	    "an over-long text value is refused: %s", err);
	ok(loadspec_parse("list_load:dir=a\tb", &ls, err, sizeof err) < 0 &&
	    strstr(err, "control character"), "control characters are refused");
	ok(loadspec_parse("exec_load", &ls, err, sizeof err) < 0 &&
	    strstr(err, "option 'cmd' is required"), "a required option: %s", err);
}

int
main(void)
{
	struct loadspec ls;
	char err[256];

	for (size_t i = 0; load_registry[i]; i++) {
		const struct load *l = load_registry[i];
		ok(load_nopts(l) <= LOAD_MAX_OPTS && load_ncounters(l) <= LOAD_MAX_COUNTERS,
		    "%s fits the option and counter limits", l->name);
		/* Defaults as a bare -l NAME resolves them (per-CPU ones too);
		 * a required option gets a value so the rest can be checked. */
		char bare[128];
		int defaults_ok = 1;
		snprintf(bare, sizeof bare, "%s", l->name);
		for (size_t o = 0; o < load_nopts(l); o++)
			if (l->opts[o].flags & LOAD_OPT_REQUIRED)
				snprintf(bare, sizeof bare, "%s:%s=x", l->name, l->opts[o].key);
		if (loadspec_parse(bare, &ls, err, sizeof err) < 0)
			defaults_ok = 0;
		for (size_t o = 0; defaults_ok && o < load_nopts(l); o++)
			if (l->opts[o].type != LOAD_OPT_STR &&
			    (ls.opt[o] < l->opts[o].min || ls.opt[o] > l->opts[o].max))
				defaults_ok = 0;
		ok(defaults_ok, "%s defaults are within bounds", l->name);
	}

	good("fork_load", "fork_load");
	good("fork_load:procs=2", "fork_load:procs=2");
	good("fork_load:method=vfork,procs=4", "fork_load:procs=4,method=vfork");
	good("no_load", "no_load");

	ok(loadspec_parse("fork_load:procs=3,method=vfork", &ls, err, sizeof err) == 0 &&
	    ls.opt[0] == 3 && ls.opt[1] == 1 && ls.set == 3, "values and set bits");
	ok(loadspec_parse("fork_load", &ls, err, sizeof err) == 0 &&
	    ls.opt[0] == 1 && ls.opt[1] == 0 && ls.set == 0, "defaults");

	bad("nosuch", "unknown load 'nosuch'");
	bad("nosuch", "fork_load");
	bad("", "expected LOAD");
	bad(":procs=1", "expected LOAD");
	bad("fork_load:", "empty option list");
	bad("fork_load:procs=abc", "procs=abc: invalid");
	bad("fork_load:procs=0", "too small");
	bad("fork_load:procs=257", "too large");
	bad("fork_load:procs=99999999999999999999", "too large");
	bad("fork_load:procs=1x", "invalid");
	bad("fork_load:procs", "needs a value");
	bad("fork_load:procs=", "needs a value");
	bad("fork_load:=3", "empty option name");
	bad("fork_load:procs=1,,method=fork", "empty option name");
	bad("fork_load:procs=1,procs=2", "given twice");
	bad("fork_load:bogus=1", "unknown option 'bogus'");
	bad("fork_load:method=spoon", "not one of fork|vfork");
	bad("no_load:x=1", "unknown option 'x' (options: none)");
	str_opts();
	return tap_done();
}
