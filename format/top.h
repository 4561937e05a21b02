/* top.csv's columns (a profile's top-symbols table), declared once: sb-profile writes and reads them. */
#ifndef SCALEBENCH_FORMAT_TOP_H
#define SCALEBENCH_FORMAT_TOP_H

/*
 * X(ID, name): top.csv's columns in file order, one row per symbol: its own
 * share of the samples and with its callees (%, 2 decimals), the same in
 * samples (0 in a table read from percentages), kernel or user, the symbol and
 * its DSO (CSV-quoted when needed). A file starts with exactly this header.
 */
#define SB_TOP_COLUMNS(X) \
	X(SELF_PCT, "self_pct") X(CHILDREN_PCT, "children_pct") X(SELF_SAMPLES, "self_samples") \
	X(CHILDREN_SAMPLES, "children_samples") X(SPACE, "space") X(SYMBOL, "symbol") X(DSO, "dso")

#define SB_TOP_X_ENUM(id, name) SB_TOP_COL_##id,
enum sb_top_col { SB_TOP_COLUMNS(SB_TOP_X_ENUM) SB_TOP_NCOLS };
#undef SB_TOP_X_ENUM

/* The header line without its newline: "self_pct,children_pct,..." (the leading comma skipped) */
#define SB_TOP_X_HEADER(id, name) "," name
#define SB_TOP_HEADER (SB_TOP_COLUMNS(SB_TOP_X_HEADER) + 1)

/* The space column's words */
#define SB_TOP_KERNEL "kernel"
#define SB_TOP_USER "user"

#endif
