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

int
main(void)
{
	struct loadspec ls;
	char err[256];

	for (size_t i = 0; load_registry[i]; i++) {
		const struct load *l = load_registry[i];
		ok(load_nopts(l) <= LOAD_MAX_OPTS && load_ncounters(l) <= LOAD_MAX_COUNTERS,
		    "%s fits the option and counter limits", l->name);
		int defaults_ok = 1;
		for (size_t o = 0; o < load_nopts(l); o++)
			if (l->opts[o].def < l->opts[o].min || l->opts[o].def > l->opts[o].max)
				defaults_ok = 0;
		ok(defaults_ok, "%s defaults are within bounds", l->name);
	}

	/* Latency buckets: monotonic, each value inside its own bucket, and
	 * no bucket wider than a quarter of its floor. */
	int hist_ok = 1;
	for (unsigned long long ns = 0; ns < 5000000000ULL; ns = ns * 5 / 4 + 1) {
		unsigned b = load_hist_bucket(ns);
		if (load_hist_floor(b) > ns ||
		    (b + 1 < LOAD_HIST_BUCKETS && load_hist_floor(b + 1) <= ns))
			hist_ok = 0;
	}
	for (unsigned b = 4; b + 1 < LOAD_HIST_BUCKETS; b++)
		if (load_hist_floor(b + 1) - load_hist_floor(b) > load_hist_floor(b) / 4)
			hist_ok = 0;
	ok(hist_ok, "latency buckets hold their values, 4 per power of two");
	ok(load_hist_bucket(~0ULL) == LOAD_HIST_BUCKETS - 1, "huge latencies land in the last bucket");

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
	return tap_done();
}
