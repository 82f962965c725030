// SPDX-License-Identifier: GPL-2.0
/*
 * An instance pinned by another kbloom version: its maps may have other
 * value sizes, which this build would misread (kbloomctl xdp status once
 * crashed on a gate whose gate_config value had grown between builds).
 * Simulated by pinning, in place of the gate's gate_config, a map of the
 * same name and type with a value 8 bytes larger:
 *   - xdp status lists the instance as not readable and exits 0, in text
 *     and in JSON, and still shows the other instances;
 *   - gate stats, gate add and xdp detach refuse it in one line (exit 3)
 *     that names the cause, and change nothing;
 *   - with the original map pinned back, the gate is whole again.
 */
#include <bpf/bpf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kbloomctl_xdp_util.h"

#define OTHER_VERSION	"pinned by another kbloom version"

FIXTURE(pl) {
	char gate[64];
	char cfg[PATH_MAX];	/* the gate's gate_config pin */
	char orig[PATH_MAX];	/* where the original waits */
	struct kbt_ns ns;
};

FIXTURE_SETUP(pl)
{
	struct kbctl_res r;

	kbt_janitor();
	kbt_name(self->gate, sizeof(self->gate), "pl");
	snprintf(self->cfg, sizeof(self->cfg), "%s/%s/gate_config",
		 KBLOOM_XDP_PIN_ROOT, self->gate);
	snprintf(self->orig, sizeof(self->orig), "%s/%s/gate_config_orig",
		 KBLOOM_XDP_PIN_ROOT, self->gate);
	ASSERT_EQ(0, kbt_ns_quiet(&self->ns));
	ASSERT_EQ(0, kbt_sh(&self->ns, "ip link add name pla type veth peer name plb && ip link set pla up && ip link set plb up"));
	OK(&r, "xdp", "attach", "gate", self->gate, "dev", "pla", "netns",
	   self->ns.path, "mode", "generic", "policy", "deny", "capacity",
	   "1000", "fpr", "1%");
	kbctl_free(&r);
	ASSERT_TRUE(exists(self->cfg));
}

FIXTURE_TEARDOWN(pl)
{
	if (exists(self->orig)) {
		unlink(self->cfg);
		rename(self->orig, self->cfg);
	}
	kbt_unpin(self->gate);
	kbt_ns_free(&self->ns);
}

/* Pin a map like the one at @path with a value 8 bytes larger there. */
static int pin_grown(const char *path, const char *orig)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	int fd, nfd, ret;

	fd = bpf_obj_get(path);
	if (fd < 0)
		return -1;
	ret = bpf_obj_get_info_by_fd(fd, &info, &len);
	close(fd);
	if (ret || rename(path, orig))
		return -1;
	nfd = bpf_map_create(info.type, info.name, info.key_size,
			     info.value_size + 8, info.max_entries, NULL);
	if (nfd < 0)
		return -1;
	ret = bpf_obj_pin(nfd, path);
	close(nfd);
	return ret;
}

TEST_F_TIMEOUT(pl, other_layout_is_named_not_misread, 60)
{
	struct kbctl_res r;

	ASSERT_EQ(0, pin_grown(self->cfg, self->orig));

	OK(&r, "xdp", "status");
	EXPECT_NE(NULL, strstr(r.out, self->gate)) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "not readable: " OTHER_VERSION))
		TH_LOG("%s", r.out);
	kbctl_free(&r);
	OK(&r, "xdp", "status", "-j");
	EXPECT_JSON(&r);
	EXPECT_NE(NULL, strstr(r.out, "\"error\":\"" OTHER_VERSION))
		TH_LOG("%s", r.out);
	kbctl_free(&r);

	kbctl_run(&r, "gate", "stats", self->gate);
	EXPECT_SYS(&r, OTHER_VERSION);
	kbctl_free(&r);
	kbctl_run(&r, "gate", "add", self->gate, "10.0.0.1");
	EXPECT_SYS(&r, OTHER_VERSION);
	kbctl_free(&r);
	kbctl_run(&r, "xdp", "detach", self->gate, "dev", "pla", "netns",
		  self->ns.path);
	EXPECT_SYS(&r, OTHER_VERSION);
	kbctl_free(&r);
	EXPECT_TRUE(exists(self->cfg));

	ASSERT_EQ(0, unlink(self->cfg));
	ASSERT_EQ(0, rename(self->orig, self->cfg));
	OK(&r, "gate", "add", self->gate, "10.0.0.1");
	kbctl_free(&r);
	OK(&r, "xdp", "status", self->gate, "netns", self->ns.path);
	EXPECT_NE(NULL, strstr(r.out, "1 addresses in the set"))
		TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "\n  pla ")) TH_LOG("%s", r.out);
	kbctl_free(&r);
}

TEST_HARNESS_MAIN
