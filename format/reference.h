/* The reference loop's reading (meta's reference_start and reference_end), declared once: sb-machine writes it, the run model reads it. */
#ifndef SCALEBENCH_FORMAT_REFERENCE_H
#define SCALEBENCH_FORMAT_REFERENCE_H

/*
 * X(ID, word, printf): the reading's words in order, blank-separated
 * `word=value` ("loop=1 rate=906248071 span=5.80 sd=2.12 slices=10 slice_ms=30"):
 * the loop's version, the slices' median rate (loop iterations a second), their
 * span and sd in %, the slices and a slice's length. sb-machine reference --short
 * (machine/reference.c) prints them in this order; the reader (analysis/io/meta.c,
 * sb_reference_parse) takes loop, rate, span and sd by name and skips other words.
 */
#define SB_REFERENCE_WORDS(X) \
	X(LOOP, "loop", "%d") X(RATE, "rate", "%s") X(SPAN, "span", "%.2f") X(SD, "sd", "%.2f") \
	X(SLICES, "slices", "%d") X(SLICE_MS, "slice_ms", "%d")

#define SB_REFERENCE_X_ENUM(id, word, fmt) SB_REFERENCE_W_##id,
enum sb_reference_word { SB_REFERENCE_WORDS(SB_REFERENCE_X_ENUM) SB_REFERENCE_NWORDS };
#undef SB_REFERENCE_X_ENUM

#define SB_REFERENCE_X_NAME(id, word, fmt) word,
static const char *const sb_reference_word_name[SB_REFERENCE_NWORDS] = { SB_REFERENCE_WORDS(SB_REFERENCE_X_NAME) };
#undef SB_REFERENCE_X_NAME

/* The line's printf format, the words' values in their order (the leading blank skipped) */
#define SB_REFERENCE_X_FORMAT(id, word, fmt) " " word "=" fmt
#define SB_REFERENCE_FORMAT (SB_REFERENCE_WORDS(SB_REFERENCE_X_FORMAT) + 1)

#endif
