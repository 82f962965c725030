// SPDX-License-Identifier: GPL-2.0
/*
 * kbloomctl: parsing of argument values, and the one-line messages that
 * refuse them ("WHAT 'VALUE': what is wrong (allowed: ...)").
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kbloomctl.h"

/*
 * An unsigned integer, decimal or 0x-hexadecimal, in [@min, @max].
 * Return: 0, -EINVAL (not a number), -ERANGE (out of range).
 */
int arg_u64(const char *s, __u64 min, __u64 max, __u64 *out)
{
	unsigned long long v;
	char *end;
	int base = 10;

	if (!s || !*s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		if (!isxdigit((unsigned char)s[2]))
			return -EINVAL;
	} else if (!isdigit((unsigned char)s[0])) {
		return -EINVAL;
	}
	errno = 0;
	v = strtoull(s, &end, base);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/*
 * A probability: "0.01", "1%", "1e-4", "2.5e-3%".  Returned in pico units
 * (1e-12), rounded, within [KBLOOM_P_TARGET_MIN, KBLOOM_P_TARGET_MAX].
 * Return: 0, -EINVAL (not a probability), -ERANGE (out of range).
 */
int arg_prob(const char *s, __u64 *pico)
{
	size_t len, i;
	double p;
	char *end;

	if (!s || !*s)
		return -EINVAL;
	len = strlen(s);
	for (i = 0; i < len; i++)
		if (!strchr("0123456789.eE+-%", s[i]))
			return -EINVAL;
	if (!isdigit((unsigned char)s[0]) && s[0] != '.')
		return -EINVAL;
	errno = 0;
	p = strtod(s, &end);
	if (end == s)
		return -EINVAL;
	if (*end == '%') {
		end++;
		p /= 100;
	}
	if (*end || !isfinite(p))
		return -EINVAL;
	p = round(p * (double)KBLOOM_P_UNIT);
	if (p < (double)KBLOOM_P_TARGET_MIN || p > (double)KBLOOM_P_TARGET_MAX)
		return -ERANGE;
	*pico = (__u64)p;
	return 0;
}

bool arg_name_ok(const char *s)
{
	return s && strlen(s) < KBLOOM_NAME_LEN && kb_name_valid(s);
}

/* Check a filter name; a usage error naming @what otherwise. */
int arg_name(const struct ctl *c, const char *what, const char *s)
{
	size_t len = strlen(s);

	if (arg_name_ok(s))
		return 0;
	if (!len)
		return ctl_usage(c, "%s '': empty (allowed: 1..%u characters of A-Z a-z 0-9 _ . -)",
				 what, KBLOOM_NAME_LEN - 1);
	if (len >= KBLOOM_NAME_LEN)
		return ctl_usage(c, "%s '%s': %zu characters, too long (allowed: 1..%u characters of A-Z a-z 0-9 _ . -)",
				 what, s, len, KBLOOM_NAME_LEN - 1);
	return ctl_usage(c, "%s '%s': invalid character (allowed: 1..%u characters of A-Z a-z 0-9 _ . -)",
			 what, s, KBLOOM_NAME_LEN - 1);
}

/* The index of @s in the NULL-terminated @words, or -1. */
int arg_pick(const char *s, const char *const *words)
{
	int i;

	for (i = 0; words[i]; i++)
		if (!strcmp(s, words[i]))
			return i;
	return -1;
}

/* "a|b|c" */
void arg_words(char *buf, size_t len, const char *const *words)
{
	size_t off = 0;
	int i;

	buf[0] = 0;
	for (i = 0; words[i] && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? "|" : "",
				words[i]);
}

int arg_bad_u64(const struct ctl *c, const char *what, const char *s,
		int err, __u64 min, __u64 max, const char *extra)
{
	return ctl_usage(c, "%s '%s': %s (allowed: an integer %llu..%llu%s%s)",
			 what, s, err == -ERANGE ? "out of range" :
			 "not a number", (unsigned long long)min,
			 (unsigned long long)max, extra ? ", " : "",
			 extra ? extra : "");
}

int arg_bad_prob(const struct ctl *c, const char *what, const char *s,
		 int err)
{
	return ctl_usage(c, "%s '%s': %s (allowed: 1e-09..0.5, written as 0.01, 1%% or 1e-4)",
			 what, s, err == -ERANGE ? "out of range" :
			 "not a probability");
}

/*
 * The image errnos of kbloom_image.h, in words: a loader's strerror()
 * alone ("Message too long") does not say what is wrong with a file.
 */
const char *image_why(int err)
{
	switch (err < 0 ? -err : err) {
	case EMSGSIZE:
		return "truncated, or not exactly one image: its length is not what its header says";
	case EBADMSG:
		return "not a valid kbloom image or bad checksum";
	case EPROTONOSUPPORT:
		return "an image version this kbloomctl does not read";
	case EOPNOTSUPP:
		return "a filter type or hash this command does not take";
	default:
		return NULL;
	}
}
