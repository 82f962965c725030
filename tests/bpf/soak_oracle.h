/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The oracle of the packet-path soak (tests/bpf/soak_test.c): what each
 * receiver must get of a flow of numbered frames while the control plane
 * changes, and what it got.
 *
 * A flow sends frames 1, 2, 3, ... at a steady rate; frame s carries key
 * s % nkeys (an mcast group, a gate source).  Each receiver (an mcast
 * port, the gate's far side) has, per key, a state: the key's frames
 * must arrive there, or must not.  The churn changes states only through
 * changes it records, each as the window (s0, s1] of frame numbers: s0
 * the last frame started when the command began, s1 when it returned.
 *
 *  - a flip (a join, a leave, a port removed, a gate address added or
 *    removed, a policy changed) changes one (receiver, key) state; frames
 *    of that pair numbered in (s0 - guard, s1] are "in change": they may
 *    have met either state (guard: frames started before the command but
 *    possibly still in flight), so either outcome is right;
 *  - every other frame of the pair is decided: due (must arrive) or not;
 *    a due frame missing is lost, a not-due frame received is leaked;
 *  - any change (a flip or not: a filter swapped, an image loaded, the
 *    programs replaced, a port added) opens a window (s0 - guard, s1] of
 *    the flow; a lost frame in one is "lost to a change".
 */
#ifndef KBT_SOAK_ORACLE_H
#define KBT_SOAK_ORACLE_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#define SOAK_ANY	0xffff	/* a window: no receiver's state flips */

struct soak_event {
	__u32 s0, s1;		/* frames (s0 - guard, s1] */
	__u16 rcv;		/* receiver, or SOAK_ANY */
	__u8 key;
	__u8 due;		/* the state after the change */
};

struct soak_track {
	struct soak_event *ev;
	size_t n, cap;
};

struct soak_tally {
	__u64 due;		/* decided frames that must arrive */
	__u64 delivered;	/* of those, arrived */
	__u64 lost;		/* of those, missing */
	__u64 lost_change;	/* of the lost, sent across a change */
	__u64 across;		/* due frames sent across a change */
	__u64 leaked;		/* decided not due, arrived */
	__u64 undecided;	/* in a flip's window */
	__u64 received;		/* all frames that arrived */
};

static inline int soak_track_add(struct soak_track *t, __u32 s0, __u32 s1,
				 __u16 rcv, __u8 key, __u8 due)
{
	struct soak_event *ev;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;

		ev = realloc(t->ev, cap * sizeof(*ev));
		if (!ev)
			return -1;
		t->ev = ev;
		t->cap = cap;
	}
	t->ev[t->n++] = (struct soak_event){ s0, s1, rcv, key, due };
	return 0;
}

static inline void soak_track_free(struct soak_track *t)
{
	free(t->ev);
	memset(t, 0, sizeof(*t));
}

static inline bool soak_bit(const __u8 *map, __u32 s)
{
	return map[s >> 3] >> (s & 7) & 1;
}

/* Frame @s falls in window @e: in (s0 - guard, s1]. */
static inline bool soak_in(const struct soak_event *e, __u32 s, __u32 guard)
{
	return s <= e->s1 && (__u64)s + guard > e->s0;
}

/*
 * Advance *@c over @t's events that end before frame @s, applying the
 * flips of (@rcv, @key) to *@due; events of other pairs are skipped
 * (events are sequential: each begins after the previous returned).
 * Return: the event whose window may hold @s, or NULL.
 */
static inline const struct soak_event *
soak_seek(const struct soak_track *t, size_t *c, __u32 s, __u16 rcv,
	  __u8 key, __u8 *due)
{
	while (*c < t->n) {
		const struct soak_event *e = &t->ev[*c];
		bool mine = e->rcv == SOAK_ANY ||
			    (e->rcv == rcv && e->key == key);

		if (mine && s <= e->s1)
			return e;
		if (mine && e->rcv != SOAK_ANY)
			*due = e->due;
		(*c)++;
	}
	return NULL;
}

/* One decided frame @s of state @due, @got its arrival, into @ty. */
static inline void soak_count(struct soak_tally *ty, bool due, bool got,
			      bool across)
{
	if (!due) {
		ty->leaked += got;
		return;
	}
	ty->due++;
	ty->across += across;
	if (got) {
		ty->delivered++;
		return;
	}
	ty->lost++;
	ty->lost_change += across;
}

/*
 * Judge receiver @rcv: frames 1..@last with key s % @nkeys, initial
 * states @init[key], arrivals in the bitmap @seen; @flips holds the flips
 * (of every receiver), @wins every change of the flow.
 */
static inline void soak_judge(const struct soak_track *flips,
			      const struct soak_track *wins, __u16 rcv,
			      const __u8 *init, __u32 nkeys, __u32 last,
			      __u32 guard, const __u8 *seen,
			      struct soak_tally *ty)
{
	const struct soak_event *f, *w;
	__u32 key, s;

	for (key = 0; key < nkeys; key++) {
		size_t cf = 0, cw = 0;
		__u8 due = init[key], dummy;

		for (s = key ? key : nkeys; s <= last; s += nkeys) {
			bool got = soak_bit(seen, s);

			ty->received += got;
			f = soak_seek(flips, &cf, s, rcv, key, &due);
			w = soak_seek(wins, &cw, s, SOAK_ANY, 0, &dummy);
			if (f && soak_in(f, s, guard)) {
				ty->undecided++;
				continue;
			}
			soak_count(ty, due, got, w && soak_in(w, s, guard));
		}
	}
}

#endif /* KBT_SOAK_ORACLE_H */
