// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The assembler takes any text: random edits of a valid program either
 * assemble, or fail with -EINVAL, no program and a position inside the
 * text.  What assembles and finalizes prints as text that assembles back
 * into the same records.
 */
#include "asm_test.h"

static const char base[] =
	"# robust\n"
	"engine pool\n"
	"top: evsem wait sem[3] >= 5 then sem[3] -= 5 lane1 wait ev[2] set value=7 then ev[4] set\n"
	"\tnop wait ev[1] set_then_clear then sem[2]++ .read value=9\n"
	"\tmovi r1, 0x12345678\n"
	"\taddi r2, r1, -1\n"
	"\tbr.lt.s32 r1, -5, top\n"
	"\tbr.ge.u32 r1, r2, end then sem[1] = r3\n"
	"\tsema_clear 3..7 ; range\n"
	"\tsema_clear mask {1, 3..5, 200}\n"
	"\tsema_clear mask 0x5555\n"
	"\tpoll sum r4, sem[10]..sem[25]\n"
	"\tdma 0x100, 0x2000, 64, latency=10 wait sem[1] == 1 on_land ev[4] set\n"
	"\tbr @3\n"
	"\t.raw a0100000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
	"end:\tdrain\n"
	"engine act\n"
	"\thalt wait sem[0] < r31\n"
	"barrier\n"
	"engine 1\n"
	"\texit\n";

static uint64_t rng = 0x243F6A8885A308D3ULL;

static uint32_t rnd(void)
{
	return t_rnd(&rng);
}

static bool same(struct ncsync_program *a, struct ncsync_program *b)
{
	unsigned int e;

	if (ncsync_program_engines(a) != ncsync_program_engines(b))
		return false;
	for (e = 0; e < 8; e++) {
		struct ncsync_stream *s = ncsync_program_find_stream(a, e);
		struct ncsync_stream *t = ncsync_program_find_stream(b, e);
		uint32_t i;

		if (!s)
			continue;
		if (ncsync_stream_count(s) != ncsync_stream_count(t))
			return false;
		for (i = 0; i < ncsync_stream_count(s); i++)
			if (memcmp(ncsync_stream_record(s, i),
				   ncsync_stream_record(t, i),
				   NCSYNC_RECORD_SIZE))
				return false;
	}
	return true;
}

/* Where the error points must exist: line <= lines, col <= its length + 1. */
static bool pos_ok(const char *text, const struct ncsync_asm_error *err)
{
	unsigned int line = 1;
	const char *p = text, *eol;

	if (!err->line || !err->col || !err->msg[0])
		return false;
	while (line < err->line) {
		p = strchr(p, '\n');
		if (!p)
			return false;
		p++;
		line++;
	}
	eol = strchr(p, '\n');
	return err->col <= (eol ? (size_t)(eol - p) : strlen(p)) + 1;
}

int main(void)
{
	static const char alphabet[] =
		" \t\n#;:,.=+-<>[]{}@0123456789abcdefxrLsemvwaitnholdq_";
	unsigned int i, k, ok = 0, failed = 0, bad_pos = 0, bad_trip = 0;
	char text[4096];
	struct ncsync_program *prog, *again;
	struct ncsync_asm_error err;
	int ret;

	ret = ncsync_asm(base, &prog, &err);
	TAP_CHECK(!ret, "the base text assembles (%u:%u: %s)", err.line,
		  err.col, ret ? err.msg : "");
	ncsync_program_free(prog);

	for (i = 0; i < 30000; i++) {
		size_t len = strlen(base);
		unsigned int edits = 1 + rnd() % 4;

		memcpy(text, base, len + 1);
		for (k = 0; k < edits; k++) {
			size_t at = rnd() % (len + 1);

			switch (rnd() % 5) {
			case 0:		/* replace */
				if (at < len)
					text[at] = alphabet[rnd() %
						(sizeof(alphabet) - 1)];
				break;
			case 1:		/* insert */
				if (len + 2 >= sizeof(text))
					break;
				memmove(text + at + 1, text + at, len - at + 1);
				text[at] = alphabet[rnd() %
					(sizeof(alphabet) - 1)];
				len++;
				break;
			case 2:		/* delete */
				if (at < len) {
					memmove(text + at, text + at + 1,
						len - at);
					len--;
				}
				break;
			case 3:		/* any byte */
				if (at < len)
					text[at] = (char)(1 + rnd() % 255);
				break;
			default:	/* truncate */
				text[at] = '\0';
				len = at;
				break;
			}
		}
		prog = (struct ncsync_program *)&prog;
		ret = ncsync_asm(text, &prog, &err);
		if (ret) {
			failed++;
			if (ret != -EINVAL || prog || !pos_ok(text, &err)) {
				bad_pos++;
				printf("# %d %u:%u: %s\n", ret, err.line,
				       err.col, err.msg);
			}
			continue;
		}
		ok++;
		if (!ncsync_program_finalize(prog)) {
			char *buf = NULL;
			size_t n = 0;
			FILE *f = open_memstream(&buf, &n);

			ret = ncsync_disasm_program(prog, f);
			fclose(f);
			if (ret || ncsync_asm(buf, &again, &err)) {
				bad_trip++;
			} else {
				if (ncsync_program_finalize(again) ||
				    !same(prog, again))
					bad_trip++;
				ncsync_program_free(again);
			}
			free(buf);
		}
		ncsync_program_free(prog);
	}
	TAP_CHECK(!bad_pos, "30000 edited texts: %u assemble, %u refused at a real position",
		  ok, failed);
	TAP_CHECK(!bad_trip, "every one that finalizes round-trips as text");
	return tap_done();
}
