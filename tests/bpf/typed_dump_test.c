// SPDX-License-Identifier: GPL-2.0
/*
 * `bpftool map dump` of the d-left tracker's and the Count-Min sketch's
 * maps prints their values by the BTF names of the uapi structs
 * (uapi/kbloom_dleft_maps.h, uapi/kbloom_sketch_maps.h), with the values
 * the loader wrote: an operator reads the parameters and the per-CPU
 * counters without kbloom's tools.  The maps are found through the loaded
 * program's map ids, by name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "kselftest_harness.h"
#include "libkbloom_dleft.h"
#include "libkbloom_sketch.h"

#define TD_MAPS		16
#define TD_OUT		65536

/* The id of the map named @name used by program @prog_fd, or 0. */
static __u32 td_map_id(int prog_fd, const char *name)
{
	struct bpf_prog_info pi = { 0 };
	struct bpf_map_info mi;
	__u32 ids[TD_MAPS], len = sizeof(pi), i, id = 0;
	int fd;

	pi.nr_map_ids = TD_MAPS;
	pi.map_ids = (__u64)(unsigned long)ids;
	if (bpf_obj_get_info_by_fd(prog_fd, &pi, &len))
		return 0;
	for (i = 0; i < pi.nr_map_ids && i < TD_MAPS && !id; i++) {
		fd = bpf_map_get_fd_by_id(ids[i]);
		if (fd < 0)
			continue;
		memset(&mi, 0, sizeof(mi));
		len = sizeof(mi);
		if (!bpf_obj_get_info_by_fd(fd, &mi, &len) &&
		    !strcmp(mi.name, name))
			id = ids[i];
		close(fd);
	}
	return id;
}

/* bpftool's JSON dump of map @id into @out (NUL-terminated). */
static int td_dump(__u32 id, char *out, size_t size)
{
	char cmd[128];
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "bpftool map dump id %u 2>&1", id);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, size - 1, p);
	out[n] = 0;
	return pclose(p) ? -1 : 0;
}

/* Map @name of @prog dumps with every string of @want (NULL-ended). */
static int td_has(struct __test_metadata *_metadata, int prog,
		  const char *name, const char *const *want)
{
	__u32 id = td_map_id(prog, name);
	char *out = malloc(TD_OUT);
	int ok = 1;

	if (!out || !id || td_dump(id, out, TD_OUT)) {
		TH_LOG("%s: no map or no dump", name);
		free(out);
		return 0;
	}
	for (; *want; want++) {
		if (strstr(out, *want))
			continue;
		TH_LOG("%s: no '%s' in: %.600s", name, *want, out);
		ok = 0;
	}
	free(out);
	return ok;
}

TEST(dleft_maps_typed)
{
	static const struct kb_shape shape = {
		.type = KBLOOM_TYPE_DLEFT, .tables = 4, .slots = 8,
		.fp_bits = 12, .counter_bits = 4, .buckets = 64,
	};
	static const char *const params[] = {
		"\"shape\": {", "\"fp_bits\": 12", "\"tables\": 4",
		"\"buckets\": 64", "\"nwords\": 512", "\"ready\": 1", NULL };
	static const char *const stats[] = {
		"\"inserted\": ", "\"overflows\": ", "\"del_miss\": ",
		"\"not_ready\": ", NULL };
	static const char *const words[] = { "\"key\": ", "\"value\": ", NULL };
	struct kbloom_dleft_xdp *x;
	struct kbloom_dleft *f;
	int prog;

	ASSERT_EQ(0, kbloom_dleft_create_shape(&shape, NULL, &f));
	ASSERT_EQ(0, kbloom_dleft_xdp_open(f, KBLOOM_DLEFT_MISS_PASS, &x));
	prog = kbloom_dleft_xdp_prog_fd(x);
	EXPECT_TRUE(td_has(_metadata, prog, "dleft_params", params));
	EXPECT_TRUE(td_has(_metadata, prog, "dleft_stats", stats));
	EXPECT_TRUE(td_has(_metadata, prog, "dleft_words", words));
	kbloom_dleft_xdp_close(x);
	kbloom_dleft_destroy(f);
}

TEST(sketch_maps_typed)
{
	struct kbloom_sketch_xdp_opts o = {
		.geom = { .rows = 4, .width = 1024, .counter_bits = 32 },
		.action = KBLOOM_SKETCH_MARK, .mark = 77, .threshold = 1000,
	};
	static const char *const params[] = {
		"\"width\": 1024", "\"rows\": 4", "\"counter_bits\": 32",
		"\"mark\": 77", "\"threshold\": 1000", NULL };
	static const char *const stats[] = {
		"\"packets\": ", "\"saturations\": ", "\"contended\": ", NULL };
	struct kbloom_sketch_xdp *x;
	int prog;

	ASSERT_EQ(0, kbloom_sketch_xdp_open(&o, &x));
	prog = kbloom_sketch_xdp_prog_fd(x);
	EXPECT_TRUE(td_has(_metadata, prog, "sketch_params", params));
	EXPECT_TRUE(td_has(_metadata, prog, "sketch_stats", stats));
	kbloom_sketch_xdp_close(x);
}

TEST_HARNESS_MAIN
