// SPDX-License-Identifier: GPL-2.0
/*
 * The documents match what they describe (issue 17's smaller defects):
 *
 * images_are_tracked     every image README.md, kmod/README.md and the
 *                        markdown files of docs/ embed (![...](path)) is a file git
 *                        tracks, so a clone shows it (docs/leakage.md
 *                        embedded two ignored PNGs)
 * synopsis_has_commands  the man page's SYNOPSIS names every command
 *                        kbloomctl has (the list of "kbloomctl completion
 *                        bash", made from its command tables; it left out
 *                        experiment)
 *
 * Runs from the repository root (tests/run-suite's working directory);
 * images_are_tracked is skipped outside a git checkout.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kbloomctl_util.h"

/* Untracked images embedded in markdown file @md, each logged. */
static int doc_untracked(struct __test_metadata *_metadata, const char *md)
{
	char line[1024], path[1024], dir[512], cmd[2200], *p, *end;
	int bad = 0;
	FILE *f = fopen(md, "r");

	if (!f)
		return 1;
	snprintf(dir, sizeof(dir), "%s", md);
	p = strrchr(dir, '/');
	if (p)
		p[1] = 0;
	else
		dir[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		for (p = line; (p = strstr(p, "](")); p += 2) {
			end = strchr(p + 2, ')');
			if (!end || !strstr(line, "![") || strstr(p, "://") == p + 2)
				continue;
			snprintf(path, sizeof(path), "%s%.*s", dir,
				 (int)(end - p - 2), p + 2);
			if (!strstr(path, ".png") && !strstr(path, ".svg") &&
			    !strstr(path, ".jpg"))
				continue;
			snprintf(cmd, sizeof(cmd),
				 "git ls-files --error-unmatch '%s' >/dev/null 2>&1",
				 path);
			if (system(cmd)) {
				TH_LOG("%s embeds %s, which git does not track",
				       md, path);
				bad++;
			}
		}
	}
	fclose(f);
	return bad;
}

TEST(images_are_tracked)
{
	glob_t g;
	size_t i;
	int bad;

	if (system("git rev-parse --git-dir >/dev/null 2>&1"))
		SKIP(return, "not a git checkout");
	bad = doc_untracked(_metadata, "README.md") +
	      doc_untracked(_metadata, "kmod/README.md");
	ASSERT_EQ(0, glob("docs/*.md", 0, NULL, &g));
	for (i = 0; i < g.gl_pathc; i++)
		bad += doc_untracked(_metadata, g.gl_pathv[i]);
	globfree(&g);
	EXPECT_EQ(0, bad);
}

/* The SYNOPSIS section of doc/kbloomctl.8, in a malloc()ed string. */
static char *doc_synopsis(void)
{
	char line[512], *out = calloc(1, 1 << 16);
	bool in = false;
	FILE *f = fopen("doc/kbloomctl.8", "r");

	if (!f || !out) {
		free(out);
		if (f)
			fclose(f);
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, ".SH ", 4))
			in = !strncmp(line, ".SH SYNOPSIS", 12);
		else if (in && strlen(out) + strlen(line) < (1 << 16))
			strcat(out, line);
	}
	fclose(f);
	return out;
}

TEST(synopsis_has_commands)
{
	char *syn = doc_synopsis(), *list, *tok, *save, want[64];
	struct kbctl_res r;
	int missing = 0, n = 0;

	ASSERT_NE(NULL, syn);
	ASSERT_EQ(0, kbctl_run(&r, "completion", "bash"));
	list = strstr(r.out, "\t\"\") echo \"");
	ASSERT_NE(NULL, list);
	list += strlen("\t\"\") echo \"");
	*strchr(list, '"') = 0;
	for (tok = strtok_r(list, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		snprintf(want, sizeof(want), ".B kbloomctl %s", tok);
		n++;
		if (!strstr(syn, want)) {
			TH_LOG("SYNOPSIS lacks %s", tok);
			missing++;
		}
	}
	EXPECT_LT(20, n);
	EXPECT_EQ(0, missing);
	kbctl_free(&r);
	free(syn);
}

TEST_HARNESS_MAIN
