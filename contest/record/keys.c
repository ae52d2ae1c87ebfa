/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every member's name by its id: the session's, then the figures'. */
#include "config.h"

#include <ctype.h>

#include "keys.h"

const char *const rkey_names[RK_N] = {
#define RK_NAME_OF(id, key) [RK_##id] = key,
	SESSION_KEYS(RK_NAME_OF)
#undef RK_NAME_OF
#define FIG_NAME_OF(id, key, ...) [RK_NSESSION + FIG_##id] = key,
	FIGURES(FIG_NAME_OF)
#undef FIG_NAME_OF
};

const char *const run_status_names[RUN_NSTATUS] = {
#define RUN_NAME_OF(id, name) [RUN_##id] = name,
	RUN_STATUSES(RUN_NAME_OF)
#undef RUN_NAME_OF
};

const char *const vmstat_keys[VMSTAT_NTEL] = {
#define VK_NAME_OF(id, key) [VK_##id] = key,
	VMSTAT_KEYS(VK_NAME_OF)
#undef VK_NAME_OF
};

const char *const provenance_keys[PRK_N] = {
#define PRK_NAME_OF(id, key) [PRK_##id] = key,
	PROVENANCE_KEYS(PRK_NAME_OF)
#undef PRK_NAME_OF
};

const char *const job_id_keys[JK_N] = {
#define JK_NAME_OF(id, key) [JK_##id] = key,
	JOB_ID_KEYS(JK_NAME_OF)
#undef JK_NAME_OF
};

const char *const series_keys[SK_N] = {
#define SK_NAME_OF(id, key) [SK_##id] = key,
	SERIES_KEYS(SK_NAME_OF)
#undef SK_NAME_OF
};

const char *const probe_keys[PK_N] = {
#define PK_NAME_OF(id, key) [PK_##id] = key,
	PROBE_KEYS(PK_NAME_OF)
#undef PK_NAME_OF
};

const char *const schedstat_keys[SS_N] = {
#define SS_NAME_OF(id, key) [SS_##id] = key,
	SCHEDSTAT_KEYS(SS_NAME_OF)
#undef SS_NAME_OF
};

const char *const jm_def_keys[JMK_N] = {
#define JMK_NAME_OF(id, key) [JMK_##id] = key,
	JM_DEF_KEYS(JMK_NAME_OF)
#undef JMK_NAME_OF
};

const char *const jm_better_names[2] = { "lower", "higher" };

int
jm_name_ok(const char *s, size_t len)
{
	if (len == 0 || len >= JM_NAME_MAX || !islower((unsigned char)s[0]))
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) &&
		    s[i] != '_')
			return 0;
	return 1;
}

const char *const controller_keys[CTK_N] = {
#define CTK_NAME_OF(id, key) [CTK_##id] = key,
	CONTROLLER_KEYS(CTK_NAME_OF)
#undef CTK_NAME_OF
};

const char *const variant_kind_names[VK_NKINDS] = {
#define VARK_NAME_OF(id, name) [VK_##id] = name,
	VARIANT_KINDS(VARK_NAME_OF)
#undef VARK_NAME_OF
};

const char *const psi_keys[PSI_N] = {
#define PSI_NAME_OF(id, key) [PSI_##id] = key,
	PSI_KEYS(PSI_NAME_OF)
#undef PSI_NAME_OF
};
