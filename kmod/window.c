// SPDX-License-Identifier: GPL-2.0
/*
 * kbloom.ko's age-partitioned Bloom filter (KBLOOM_TYPE_AGE_PARTITIONED)
 * as a table of struct kb_type_ops: a sliding window of k + l slices.
 * Positions, rotation rule, rate and planner are uapi/kbloom_var_window.h's,
 * the ones libkbloom uses, so images move between the two.
 *
 * Writers (ADD, and the rotations) hold f->wmutex: a count window rotates
 * in the ADD that finds its generation full; a time window is rotated by
 * a delayed work item at each generation's end (and by an ADD that finds
 * one due, should the work run late).  A rotation clears the oldest slice,
 * then publishes it as the head (smp_store_release()).
 *
 * Readers (TEST, the kfunc bpf_kbloom_test()) take no lock: they load the
 * head with smp_load_acquire(), then the generation start, and leave out
 * the slices that the rotations due now would clear, so their answer does
 * not depend on when the work ran.  The work is armed when the filter is
 * published and cancelled (synchronously) when it is unpublished, before
 * its last reference can go: DESTROY, a RESTORE that replaces it and
 * rmmod all unpublish first.
 */
#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "kbloom_int.h"

struct kb_win {
	struct kb_filter *f;
	struct delayed_work work;
	u32 head;		/* physical index of the newest slice */
	bool armed;
	u64 gen_start;		/* time clock: ktime_get_ns() at its start */
	u64 gen_keys;		/* count clock: keys in this generation */
	u64 rotations;
};

static struct kb_win *kb_win_of(const struct kb_filter *f)
{
	return f->scratch;
}

static u32 kb_win_nslices(const struct kb_filter *f)
{
	return kb_win_slices(f->g.k, f->g.tables);
}

static bool kb_win_timed(const struct kb_filter *f)
{
	return f->g.update == KB_WIN_CLOCK_NS;
}

/* The load a create plans for: the window (keys) or the capacity (time). */
static int kb_win_create_shape(const struct kbloom_create *cmd,
			       struct kb_shape *s)
{
	u32 k = cmd->k, l = cmd->tables;
	u64 load;

	if (cmd->fpr_pico) {
		if (cmd->buckets)
			return -EINVAL;
		if (cmd->update == KB_WIN_CLOCK_KEYS && cmd->capacity)
			return -EINVAL;
		load = cmd->update == KB_WIN_CLOCK_KEYS ? cmd->window :
							  cmd->capacity;
		return kb_win_plan(load, cmd->fpr_pico, k, l, cmd->update, s);
	}
	if (cmd->capacity)
		return -EINVAL;
	if (k >= KBLOOM_K_MIN && k <= KBLOOM_K_MAX && l >= KB_WIN_L_MIN &&
	    l <= KB_WIN_L_MAX && cmd->buckets > KBLOOM_M_MAX / (k + l))
		return -E2BIG;
	return kb_win_shape_init(s, k, l, cmd->buckets, cmd->update);
}

static int kb_win_create(const struct kbloom_create *cmd, struct kb_geom *g)
{
	struct kb_shape s;
	int ret;

	if (cmd->m || cmd->counter_bits || cmd->fp_bits || cmd->slots ||
	    cmd->vi_l || !cmd->window)
		return -EINVAL;
	ret = kb_win_create_shape(cmd, &s);
	if (ret)
		return ret == -E2BIG ? -E2BIG : -EINVAL;
	g->k = s.k;
	g->m = s.m;
	g->tables = s.tables;
	g->buckets = s.buckets;
	g->update = s.update;
	g->gen_len = kb_win_gen_len(cmd->window, s.tables);
	if (s.update == KB_WIN_CLOCK_NS && g->gen_len < KB_WIN_GEN_NS_MIN)
		return -EINVAL;
	if (cmd->fpr_pico) {
		g->capacity = s.update == KB_WIN_CLOCK_KEYS ? cmd->window :
							      cmd->capacity;
		g->fpr_pico = cmd->fpr_pico;
	}
	return 0;
}

/* Slices a reader may look at: all, less the rotations due now. */
static u32 kb_win_live(const struct kb_filter *f, const struct kb_win *w)
{
	u32 n = kb_win_nslices(f);
	u64 due;

	if (!kb_win_timed(f))
		return n;
	due = kb_win_due(ktime_get_ns(), READ_ONCE(w->gen_start),
			 f->g.gen_len);
	return due >= n ? 0 : n - (u32)due;
}

static bool kb_win_test(const struct kb_filter *f, u64 h)
{
	const struct kb_win *w = kb_win_of(f);
	/* pairs with kb_win_rotate_one(): the head's slice is cleared */
	u32 head = smp_load_acquire(&w->head);
	u32 live = kb_win_live(f, w), i, run = 0;
	struct kb_win_walk walk;
	u64 bit, word;
	int r;

	kb_win_walk_init(&walk, h, head, kb_win_nslices(f));
	for (i = 0; i < live; i++) {
		bit = kb_win_walk_next(&walk, f->g.buckets);
		word = atomic64_read(&f->words[bit >> 6]);
		r = kb_win_run_step(&run, !!(word & BIT_ULL(bit & 63)),
				    f->g.k, live - i - 1);
		if (r)
			return r > 0;
	}
	return false;
}

/* Under f->wmutex: clear the oldest slice, then make it the head. */
static void kb_win_rotate_one(struct kb_filter *f, struct kb_win *w)
{
	u32 head = kb_win_next_head(w->head, kb_win_nslices(f));
	u64 per = f->g.buckets / 64, i;

	for (i = 0; i < per; i++) {
		atomic64_set(&f->words[head * per + i], 0);
		if (!((i + 1) % KB_RESCHED_WORDS))
			cond_resched();
	}
	/* the cleared slice before the head that names it: kb_win_test() */
	smp_store_release(&w->head, head);
	w->rotations++;
	w->gen_keys = 0;
}

/* Under f->wmutex: the time clock's rotations due at @now. */
static void kb_win_catch_up(struct kb_filter *f, struct kb_win *w, u64 now)
{
	u64 due = kb_win_due(now, w->gen_start, f->g.gen_len), i;

	if (!due)
		return;
	/* readers first see the new start: they may still skip a slice */
	WRITE_ONCE(w->gen_start, w->gen_start + due * f->g.gen_len);
	for (i = 0; i < due && i < kb_win_nslices(f); i++)
		kb_win_rotate_one(f, w);
	w->rotations += due - i;
}

static int kb_win_add(struct kb_filter *f, u64 h)
{
	struct kb_win *w = kb_win_of(f);
	struct kb_win_walk walk;
	u64 bit;
	u32 i;

	mutex_lock(&f->wmutex);
	if (kb_win_timed(f))
		kb_win_catch_up(f, w, ktime_get_ns());
	else if (w->gen_keys >= f->g.gen_len)
		kb_win_rotate_one(f, w);
	kb_win_walk_init(&walk, h, w->head, kb_win_nslices(f));
	for (i = 0; i < f->g.k; i++) {
		bit = kb_win_walk_next(&walk, f->g.buckets);
		atomic64_or(BIT_ULL(bit & 63), &f->words[bit >> 6]);
	}
	w->gen_keys++;
	mutex_unlock(&f->wmutex);
	return 0;
}

/* Queue the work for the end of the current generation. */
static void kb_win_schedule(struct kb_win *w, u64 end)
{
	u64 now = ktime_get_ns();
	unsigned long delay = 0;

	if (end > now)
		delay = nsecs_to_jiffies(end - now) + 1;
	queue_delayed_work(system_wq, &w->work, delay);
}

static void kb_win_work(struct work_struct *work)
{
	struct kb_win *w = container_of(to_delayed_work(work), struct kb_win,
					work);
	struct kb_filter *f = w->f;
	u64 end;

	mutex_lock(&f->wmutex);
	kb_win_catch_up(f, w, ktime_get_ns());
	end = w->gen_start + f->g.gen_len;
	mutex_unlock(&f->wmutex);
	kb_win_schedule(w, end);
}

static int kb_win_init(struct kb_filter *f)
{
	struct kb_win *w = kzalloc(sizeof(*w), KB_GFP);

	if (!w)
		return -ENOMEM;
	w->f = f;
	w->gen_start = ktime_get_ns();
	INIT_DELAYED_WORK(&w->work, kb_win_work);
	f->scratch = w;
	return 0;
}

static void kb_win_arm(struct kb_filter *f)
{
	struct kb_win *w = kb_win_of(f);

	if (!kb_win_timed(f))
		return;
	w->armed = true;
	kb_win_schedule(w, READ_ONCE(w->gen_start) + f->g.gen_len);
}

static void kb_win_disarm(struct kb_filter *f)
{
	struct kb_win *w = kb_win_of(f);

	if (w->armed)
		cancel_delayed_work_sync(&w->work);
	w->armed = false;
}

/* ns since the current generation started (0 before it). */
static u64 kb_win_age(const struct kb_win *w)
{
	u64 now = ktime_get_ns(), start = READ_ONCE(w->gen_start);

	return now > start ? now - start : 0;
}

static void kb_win_save_tail(const struct kb_filter *f,
			     struct kbloom_image_geom *t)
{
	const struct kb_win *w = kb_win_of(f);
	u64 clock = kb_win_timed(f) ? min(kb_win_age(w), f->g.gen_len) :
				      READ_ONCE(w->gen_keys);

	t->reserved[KB_WIN_GEOM_GEN_LEN] = kb_le64(f->g.gen_len);
	/* the head of words copied after it (kb_win_rotate_one()) */
	t->reserved[KB_WIN_GEOM_HEAD] = kb_le64(smp_load_acquire(&w->head));
	t->reserved[KB_WIN_GEOM_CLOCK] = kb_le64(clock);
	t->reserved[KB_WIN_GEOM_ROTATIONS] = kb_le64(READ_ONCE(w->rotations));
}

/* A verified tail, before the filter is published. */
static void kb_win_load_tail(struct kb_filter *f,
			     const struct kbloom_image_geom *t)
{
	struct kb_win *w = kb_win_of(f);
	u64 clock = kb_le64(t->reserved[KB_WIN_GEOM_CLOCK]), now;

	w->head = kb_le64(t->reserved[KB_WIN_GEOM_HEAD]);
	w->rotations = kb_le64(t->reserved[KB_WIN_GEOM_ROTATIONS]);
	if (!kb_win_timed(f)) {
		w->gen_keys = clock;
		return;
	}
	now = ktime_get_ns();
	w->gen_start = now > clock ? now - clock : 0;
}

static u64 kb_win_fpr_now(const struct kb_filter *f, u64 n)
{
	const struct kb_win *w = kb_win_of(f);
	u64 c = READ_ONCE(w->gen_keys), g = f->g.gen_len;

	if (kb_win_timed(f)) {
		g = f->g.capacity ? kb_win_gen_len(f->g.capacity, f->g.tables) :
				    c;
		g = max(g, c);
	}
	return kb_win_fpr_pico(f->g.k, f->g.tables, f->g.buckets, g, c);
}

static void kb_win_stat(const struct kb_filter *f, struct kbloom_stat *st)
{
	const struct kb_win *w = kb_win_of(f);

	st->window = f->g.gen_len * f->g.tables;
	st->gen_len = f->g.gen_len;
	st->gen_clock = kb_win_timed(f) ? kb_win_age(w) :
					  READ_ONCE(w->gen_keys);
	st->rotations = READ_ONCE(w->rotations);
	/* as kb_win_test() reads it */
	st->head = smp_load_acquire(&w->head);
}

const struct kb_type_ops kb_win_ops = {
	.create = kb_win_create,
	.test = kb_win_test,
	.add = kb_win_add,
	.fpr_pico = kb_win_fpr_now,
	.stat = kb_win_stat,
	.init = kb_win_init,
	.arm = kb_win_arm,
	.disarm = kb_win_disarm,
	.save_tail = kb_win_save_tail,
	.load_tail = kb_win_load_tail,
};
