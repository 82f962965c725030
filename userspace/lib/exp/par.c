// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * libkbloom_exp: worker threads and the clocks.
 *
 * Each thread owns one struct exp_worker: its work space (trees, the
 * simulator, the MSBF builder, per-node and per-port marks) and its
 * accumulators, which the caller adds up after each phase.
 * exp_par_run() runs one phase on every worker, one thread each, while the
 * calling thread reports progress every 100 ms.  The work is shared out
 *   - dynamically: chunks of EXP_CHUNK groups from one atomic counter
 *     (exp_grab()), where the cost varies from group to group;
 *   - statically: worker i of T takes the groups [G i / T, G (i + 1) / T)
 *     or the ports i, i + T, i + 2 T, ..., where a later pass must find the
 *     same split.
 * A phase's CPU time is the sum of its threads' CLOCK_THREAD_CPUTIME_ID.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exp_int.h"

#define EXP_CHUNK		4U	/* groups per grab */

double exp_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double exp_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void exp_worker_free(struct exp_worker *w)
{
	kb_spt_free(w->spt);
	kb_tree_free(w->tr);
	kb_tree_free(w->ct);
	kb_sim_free(w->sim);
	kb_msbf_free(w->ms);
	free(w->mark);
	free(w->q);
	free(w->trace);
	free(w->seen);
	free(w->cmark);
	free(w->path);
	free(w->hdr);
	free(w->fpmark);
	free(w->dmark);
	free(w->dval);
	free(w->lmark);
	free(w->lon);
	free(w->lstk);
	free(w->loff);
	free(w->zf_pred);
	free(w->node_fp);
	free(w->fp.v);
	free(w->fn.v);
	free(w->g_pred);
	free(w->keys);
	free(w->bitmap);
	free(w->acc.sw_fp);
	free(w->acc.sw_cand);
	free(w->acc.sw_cand_fp);
	free(w->present);
	free(w->absent);
	free(w->sw_groups);
	memset(w, 0, sizeof(*w));
}

/* The worker's control-plane objects; exp_worker_free() undoes a part. */
static int worker_objects(const struct kb_topo *t, __u32 max_tx,
			  struct exp_worker *w)
{
	int err;

	err = kb_spt_new(t, &w->spt);
	if (err)
		return err;
	err = kb_tree_new(t, &w->tr);
	if (err)
		return err;
	err = kb_tree_new(t, &w->ct);
	if (err)
		return err;
	err = kb_sim_new(t, max_tx, &w->sim);
	if (err)
		return err;
	return kb_msbf_new(t, &w->ms);
}

/* The worker's arrays; exp_worker_free() undoes a part. */
static int worker_arrays(const struct kb_exp *x, __u32 max_tx,
			 struct exp_worker *w)
{
	const struct kb_topo *t = x->topo;
	size_t nn = t->nnodes, pc = (size_t)t->nports * KB_MCBF_CLASSES;

	w->mark = calloc(nn, sizeof(*w->mark));
	w->q = malloc(((size_t)max_tx + 1) * sizeof(*w->q));
	w->trace = malloc((size_t)max_tx * sizeof(*w->trace));
	w->seen = calloc(nn, sizeof(*w->seen));
	w->cmark = calloc(nn, sizeof(*w->cmark));
	w->path = malloc(nn * sizeof(*w->path));
	w->hdr = malloc(EXP_HDR_MAX);
	w->fpmark = calloc(t->nports + 1, sizeof(*w->fpmark));
	w->dmark = calloc(t->nports + 1, sizeof(*w->dmark));
	w->dval = calloc(t->nports + 1, sizeof(*w->dval));
	w->lmark = calloc(t->nports + 1, sizeof(*w->lmark));
	w->lon = calloc(t->nports + 1, sizeof(*w->lon));
	w->lstk = malloc((t->nports + 1) * sizeof(*w->lstk));
	w->loff = malloc((t->nports + 1) * sizeof(*w->loff));
	w->zf_pred = malloc((t->nports + 1) * sizeof(*w->zf_pred));
	w->node_fp = malloc(nn * KB_IPBF_D_MAX * sizeof(*w->node_fp));
	w->g_pred = calloc(x->p.groups + 1, sizeof(*w->g_pred));
	w->acc.sw_fp = calloc(x->nsw + 1, sizeof(__u64));
	w->acc.sw_cand = calloc(x->nsw + 1, sizeof(__u64));
	w->acc.sw_cand_fp = calloc(x->nsw + 1, sizeof(__u64));
	w->present = calloc(pc + 1, sizeof(__u32));
	w->absent = calloc(pc + 1, sizeof(__u32));
	w->sw_groups = calloc(x->nsw + 1, sizeof(__u32));
	if (!w->mark || !w->q || !w->trace || !w->seen || !w->cmark ||
	    !w->path || !w->hdr || !w->fpmark || !w->dmark || !w->dval ||
	    !w->lmark || !w->lon || !w->lstk || !w->loff ||
	    !w->zf_pred || !w->node_fp || !w->g_pred ||
	    !w->acc.sw_fp || !w->acc.sw_cand ||
	    !w->acc.sw_cand_fp || !w->present || !w->absent || !w->sw_groups)
		return -ENOMEM;
	return 0;
}

int exp_worker_init(struct kb_exp *x, struct exp_worker *w, __u32 id)
{
	__u32 max_tx = x->p.max_tx ? x->p.max_tx : EXP_MAX_TX_DEFAULT;
	size_t i;
	int err;

	memset(w, 0, sizeof(*w));
	w->x = x;
	w->id = id;
	err = worker_objects(x->topo, max_tx, w);
	if (err)
		goto err_free;
	err = worker_arrays(x, max_tx, w);
	if (err)
		goto err_free;
	for (i = 0; i <= x->topo->nports; i++)
		w->zf_pred[i] = -1.0;
	return 0;

err_free:
	exp_worker_free(w);
	return err;
}

/* The workers still running a phase; the last one out wakes the caller. */
struct par_sync {
	pthread_mutex_t lock;
	pthread_cond_t done;
	__u32 running;
};

struct par_job {
	par_fn fn;
	void *arg;
	struct exp_worker *w;
	struct par_sync *sync;
};

static void par_exit(struct par_sync *ps, __u32 n)
{
	pthread_mutex_lock(&ps->lock);
	ps->running -= n;
	if (!ps->running)
		pthread_cond_signal(&ps->done);
	pthread_mutex_unlock(&ps->lock);
}

static void *par_main(void *a)
{
	struct par_job *j = a;
	double c0 = exp_cpu_s();

	j->w->err = j->fn(j->w, j->arg);
	j->w->cpu += exp_cpu_s() - c0;
	par_exit(j->sync, 1);
	return NULL;
}

void exp_progress_tick(struct kb_exp *x)
{
	if (x->progress)
		x->progress(x->pctx, atomic_load(&x->done), x->total);
}

/*
 * Run @fn on every worker, one thread each (the calling thread reports
 * progress meanwhile).  Return: the first error of a worker.
 */
int exp_par_run(struct kb_exp *x, par_fn fn, void *arg)
{
	struct par_sync ps = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.done = PTHREAD_COND_INITIALIZER,
		.running = x->nthreads,
	};
	struct par_job jobs[KB_EXP_THREADS_MAX];
	struct timespec until;
	__u32 i, started = 0;
	int err = 0;

	atomic_store(&x->next, 0);
	if (x->nthreads == 1) {
		double c0 = exp_cpu_s();

		err = fn(&x->w[0], arg);
		x->w[0].cpu += exp_cpu_s() - c0;
		exp_progress_tick(x);
		return err;
	}
	for (i = 0; i < x->nthreads; i++) {
		jobs[i] = (struct par_job){ fn, arg, &x->w[i], &ps };
		x->w[i].err = 0;
		if (pthread_create(&x->w[i].thread, NULL, par_main, &jobs[i])) {
			par_exit(&ps, x->nthreads - i);
			err = -EAGAIN;
			break;
		}
		started++;
	}
	/* progress every 100 ms until the last worker is out */
	pthread_mutex_lock(&ps.lock);
	while (ps.running) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		if (pthread_cond_timedwait(&ps.done, &ps.lock, &until)) {
			pthread_mutex_unlock(&ps.lock);
			exp_progress_tick(x);
			pthread_mutex_lock(&ps.lock);
		}
	}
	pthread_mutex_unlock(&ps.lock);
	for (i = 0; i < started; i++) {
		pthread_join(x->w[i].thread, NULL);
		if (!err)
			err = x->w[i].err;
	}
	exp_progress_tick(x);
	return err;
}

/* The next chunk of groups for this thread: [*lo, *hi); 0 when none. */
int exp_grab(struct kb_exp *x, __u32 *lo, __u32 *hi)
{
	__u32 g = atomic_fetch_add(&x->next, EXP_CHUNK);

	if (g >= x->p.groups)
		return 0;
	*lo = g;
	*hi = g + EXP_CHUNK < x->p.groups ? g + EXP_CHUNK : x->p.groups;
	return 1;
}
