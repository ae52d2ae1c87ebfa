/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A row's environment: what its first run's line says of the machine,
 * the kernel, the job's prepare step and the session's settings. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rset_impl.h"
#include "util.h"

/* What else the run's machine and kernel were, when it says. */
static void
provenance(struct rset *rs, struct rrun *r, const struct jnode *p,
    const struct jnode *id)
{
	r->cmdline = rs_intern(rs, jget_str(p, PRK_NAME(CMDLINE)));
	r->sched_ext = rs_intern(rs, jget_str(p, PRK_NAME(SCHED_EXT)));
	r->preempt = rs_intern(rs, jget_str(p, PRK_NAME(PREEMPT)));
	r->config_sha256 = rs_intern(rs, jget_str(p, PRK_NAME(CONFIG_SHA256)));
	r->mitigations = rs_intern(rs, jget_str(p, PRK_NAME(MITIGATIONS)));
	r->thp = rs_intern(rs, jget_str(p, PRK_NAME(THP)));
	r->git_head = rs_intern(rs, jget_str(id, JK_NAME(GIT_HEAD)));
	r->cc = rs_intern(rs, jget_str(id, JK_NAME(CC)));
	r->ld = rs_intern(rs, jget_str(id, JK_NAME(LD)));
	r->hz = (long)jget_int(p, PRK_NAME(HZ), -1, 1, 100000);
	r->autogroup = (long)jget_int(p, PRK_NAME(AUTOGROUP), -1, 0, 1);
	r->git_dirty = jget(id, JK_NAME(GIT_DIRTY)) && jget(id, JK_NAME(GIT_DIRTY))->type == J_BOOL ?
	    (long)jget_int(id, JK_NAME(GIT_DIRTY), -1, 0, 1) : -1;
}

/* "config" as pairs: each member's name and text, one pair for each
 * item of a list, NULL for a flag (true); what is neither is passed
 * over. */
static void
config_pairs(struct rset *rs, struct rrun *r, const struct jnode *c)
{
	size_t n = 0;

	if (c == NULL || c->type != J_OBJ)
		return;
	for (const struct jnode *m = c->child; m; m = m->next)
		for (const struct jnode *v = m->type == J_ARR ? m->child : m; v;
		    v = m->type == J_ARR ? v->next : NULL)
			n++;
	r->config = xcalloc(2 * n + 1, sizeof *r->config);
	for (const struct jnode *m = c->child; m; m = m->next)
		for (const struct jnode *v = m->type == J_ARR ? m->child : m; v;
		    v = m->type == J_ARR ? v->next : NULL) {
			if (v->type != J_STR && !(v->type == J_BOOL && v->num))
				continue;
			r->config[2 * r->nconfig] = rs_intern(rs, m->key);
			r->config[2 * r->nconfig++ + 1] = v->type == J_STR ?
			    rs_intern(rs, v->str) : NULL;
		}
}

/* What the row's table and its environment lines say: its first run's. */
void
rs_environment(struct rset *rs, struct rrun *r, const struct jnode *o)
{
	r->prepare = rs_intern(rs, LSTR(o, RK_PREPARE));
	r->timestamp = rs_intern(rs, LSTR(o, RK_TIMESTAMP));	/* history's order */
	r->prepare_inferred = LGET(o, RK_PREPARE_INFERRED) &&
	    LGET(o, RK_PREPARE_INFERRED)->type == J_BOOL ?
	    (int)LINT(o, RK_PREPARE_INFERRED, 0, 0, 1) : -1;
	r->kernel = rs_intern(rs, LSTR(o, RK_KERNEL));
	r->cpu_model = rs_intern(rs, LSTR(o, RK_CPU_MODEL));
	r->version = rs_intern(rs, LSTR(o, RK_CONTEST_VERSION));
	r->sched = rs_intern(rs, LSTR(o, RK_SCHED));
	r->nproc = (long)LINT(o, RK_NPROC, 0, 0, 1L << 30);
	r->cpus_online = (long)LINT(o, RK_CPUS_ONLINE, r->nproc, 0, 1L << 30);
	r->governor = rs_intern(rs, LSTR(o, RK_CPUFREQ_GOVERNOR));
	r->clocksource = rs_intern(rs, LSTR(o, RK_CLOCKSOURCE));
	r->freq_max_khz = LINT(o, RK_CPUFREQ_MAX_KHZ, -1, 0, 1LL << 40);
	r->smt = LGET(o, RK_SMT) && LGET(o, RK_SMT)->type == J_BOOL ?
	    (int)LINT(o, RK_SMT, 0, 0, 1) : -1;
	r->mem_kb = LINT(o, RK_MEM_TOTAL_KB, 0, 0, 1LL << 50);
	r->steal_pct = LNUM(o, RK_FIG(STEAL), NAN);
	r->lead_s = LNUM(o, RK_LEAD_S, NAN);
	config_pairs(rs, r, LGET(o, RK_CONFIG));
	provenance(rs, r, LGET(o, RK_FIG(PROVENANCE)), LGET(o, RK_JOB_IDENTITY));
}
