/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzz targets' seed corpus option: run a target with
 * -kbloom_seed_corpus=DIR to write its valid inputs into DIR and exit (the
 * option is handled in LLVMFuzzerInitialize(), before libFuzzer parses its
 * own flags).
 */
#ifndef _KBLOOM_FUZZ_SEED_H
#define _KBLOOM_FUZZ_SEED_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Write @len bytes of @buf to DIR/NAME.  Return: 0 or -EIO. */
static inline int fuzz_write_file(const char *dir, const char *name,
				  const void *buf, size_t len)
{
	char path[4096];
	FILE *out;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	out = fopen(path, "wb");
	if (!out || fwrite(buf, 1, len, out) != len)
		ret = -EIO;
	if (out)
		fclose(out);
	return ret;
}

/*
 * With -kbloom_seed_corpus=DIR among the arguments: @write_corpus(DIR),
 * then exit (1 when it failed).  Otherwise return 0.
 */
static inline int fuzz_seed_option(int argc, char **argv, const char *prog,
				   int (*write_corpus)(const char *dir))
{
	static const char opt[] = "-kbloom_seed_corpus=";
	const char *dir;
	int i;

	for (i = 1; i < argc; i++) {
		if (strncmp(argv[i], opt, sizeof(opt) - 1))
			continue;
		dir = argv[i] + sizeof(opt) - 1;
		if (write_corpus(dir)) {
			fprintf(stderr, "%s: cannot write the corpus\n", prog);
			exit(1);
		}
		printf("%s: seed corpus written to %s\n", prog, dir);
		exit(0);
	}
	return 0;
}

#endif /* _KBLOOM_FUZZ_SEED_H */
