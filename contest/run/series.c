/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "keys.h"
#include "psi.h"
#include "series.h"
#include "util.h"

void
series_begin(struct series_src *src, struct series *out, double t0, int have_wait,
    unsigned long long wait_us, unsigned long long count,
    const struct probe_rec *prev)
{
	memset(out, 0, sizeof *out);
	src->out = out;
	out->gauge = src->gauge;
	src->t0 = src->t_prev = t0;
	src->cpu_prev = 0;	/* the job's cgroup is new: nothing used yet */
	src->have_wait = have_wait;
	src->wait_prev = wait_us;
	src->count_prev = count;
	src->prev = src->cur = NULL;
	if (src->probe && prev) {
		src->prev = xcalloc(2, sizeof *src->prev);
		src->cur = src->prev + 1;
		memcpy(src->prev, prev, sizeof *prev);
	}
}

static void
push(struct series *s, double t, double cpu, double wait, double rate, double p99)
{
	void *const all[] = { &s->t, &s->cpu, &s->wait, &s->rate, &s->p99 };
	const size_t sz[] = { sizeof *s->t, sizeof *s->cpu, sizeof *s->wait,
	    sizeof *s->rate, sizeof *s->p99 };

	xgrow_each(&s->cap, s->n + 1, 64, 5, all, sz);
	s->t[s->n] = t;
	s->cpu[s->n] = cpu;
	s->wait[s->n] = wait;
	s->rate[s->n] = rate;
	s->p99[s->n] = p99;
	s->n++;
}

void
series_sample(struct series_src *src, double now)
{
	double dt = now - src->t_prev, cpu = NAN, wait = NAN, rate = NAN, p99 = NAN;

	if (dt <= 0)
		return;
	if (src->job) {
		double c = cg_cpu_seconds(src->job);
		if (c >= 0) {
			cpu = (c - src->cpu_prev) / dt * 100;
			src->cpu_prev = c;
		}
		if (src->have_wait) {
			struct psi p;
			psi_read_at(&p, src->job->path);
			if (p.have[PSI_CPU]) {
				wait = (double)(p.some_us[PSI_CPU] - src->wait_prev) / 1e4 / dt;
				src->wait_prev = p.some_us[PSI_CPU];
			}
		}
	}
	if (src->counter) {
		unsigned long long v = atomic_load(src->counter);
		rate = src->gauge ? (double)v : (double)(v - src->count_prev) / dt;
		src->count_prev = v;
	}
	if (src->prev) {
		/* this interval's wake-ups: the histogram's growth since the last */
		probe_snap(src->probe, src->cur, 0);
		for (size_t i = 0; i < HIST_BUCKETS; i++)
			src->cur->hist[i] -= src->prev->hist[i];
		struct hist h = { HIST_SUB, src->cur->hist, 0, 0, 0, 0 };
		if (hist_total(&h))
			p99 = hist_quantile(&h, 0.99);
		for (size_t i = 0; i < HIST_BUCKETS; i++)
			src->prev->hist[i] += src->cur->hist[i];
	}
	push(src->out, now - src->t0, cpu, wait, rate, p99);
	src->t_prev = now;
}

void
series_end(struct series_src *src)
{
	free(src->prev);	/* cur is the second of the same allocation */
	src->prev = src->cur = NULL;
}

void
series_free(struct series *s)
{
	free(s->t);
	free(s->cpu);
	free(s->wait);
	free(s->rate);
	free(s->p99);
	memset(s, 0, sizeof *s);
}

static void
column(struct json *j, const char *key, const double *v, size_t n, double scale,
    int decimals)
{
	size_t k;

	for (k = 0; k < n && isnan(v[k]); k++)
		;
	if (k == n)
		return;		/* never measured: no key */
	json_key(j, key);
	json_arr_begin(j);
	for (k = 0; k < n; k++)
		if (isnan(v[k]))
			json_null(j);
		else
			json_num(j, v[k] * scale, decimals);
	json_arr_end(j);
}

void
series_json(struct json *j, const struct series *s)
{
	json_key(j, figures[FIG_SERIES].key);
	json_obj_begin(j);
	json_knum(j, SK_NAME(PERIOD), SERIES_PERIOD_S, 3);
	column(j, SK_NAME(T), s->t, s->n, 1, 3);
	column(j, SK_NAME(CPU), s->cpu, s->n, 1, 1);
	column(j, SK_NAME(WAIT), s->wait, s->n, 1, 2);
	column(j, s->gauge ? SK_NAME(LEVEL) : SK_NAME(RATE), s->rate, s->n, 1, 2);
	column(j, SK_NAME(P99), s->p99, s->n, 1e-3, 1);
	json_obj_end(j);
}
