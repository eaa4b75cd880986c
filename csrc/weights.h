/* Trained weights of the evaluation's patterns of men: the windows of a board and the weights
 * file (damiera.engine.patterns writes it and documents the format; this unit reads it).
 *
 * A window is a block of `rows` consecutive rows (1 to 4) by four files starting on an even
 * file; window w = r0 x (h - 1) + j covers rows r0.. and files 2j..2j+3. Its pattern is
 * sum(state_k x 3^k) over its squares (state 0 empty or a king, 1 white man, 2 black man;
 * k = 2 x row-in-window + (0 left square, 1 right square)). A window and its image under the
 * half turn with colours swapped (its partner) share one table, negated, so that a position
 * and its mirror image score the exact opposite; the file stores the canonical windows only
 * (index not above the partner's).
 *
 * File: the ASCII line "damiera-patterns 3 ROWS WINDOWS PHASES RULES CRC32\n" (PHASES 1, or 2
 * for an opening's set of tables then an endgame's; RULES the rules key the weights were
 * trained for, damiera.engine.patterns.rules_key; CRC32 zlib's CRC-32 of the weight bytes, 8
 * lowercase hex digits), then, for each phase and each canonical window, 3^(2 ROWS)
 * little-endian signed 16-bit weights. Version 4, "damiera-patterns 4 ROWS WINDOWS PHASES
 * TERMS RULES CRC32\n", adds the weights of the first TERMS (1..WEIGHTS_TERMS) learned terms
 * (eval.h, "Learned terms") after the tables, little-endian signed 16-bit, in the checksum.
 * Version 5, "damiera-patterns 5 ROWS WINDOWS PHASES TERMS KROWS KWINDOWS RULES CRC32\n",
 * adds king windows after the terms (inside the checksum): for each canonical window of KROWS
 * rows (1 to 3), 5^(2 KROWS) weights, its pattern sum(state_k x 5^k) with the states 0 empty,
 * 1 white man, 2 black man, 3 white king, 4 black king, partners shared and negated as above;
 * the evaluation reads them only while a king is on the board (eval.h, "King windows").
 * The older versions, without rules key and checksum, are still read: "damiera-patterns 1 ROWS
 * WINDOWS\n" (one phase) and "damiera-patterns 2 ROWS WINDOWS 2\n" (two).
 */
#ifndef DAMIERA_WEIGHTS_H
#define DAMIERA_WEIGHTS_H

#include <stddef.h>
#include <stdint.h>

#include "position.h"

/* Most bytes a weights file may have (the largest, 10x10 with 4-row windows and two phases,
 * has under 1 MB). */
#define WEIGHTS_MAX_BYTES (16 << 20)

enum { WEIGHTS_OK = 0, WEIGHTS_BAD = -1, WEIGHTS_UNREADABLE = -2 };

/* Learned terms a version 4 file may weigh (eval.h names them, in this order). */
#define WEIGHTS_TERMS 8
/* Most rows of a version 5 file's king windows (eval.h, KING_WINDOW_MAX_ROWS). */
#define WEIGHTS_KING_ROWS 3

typedef struct {
    int rows, phases;
    int16_t *tables; /* every window's table (not only the canonical ones), phase by phase */
    size_t count;    /* weights in tables */
    int terms;       /* learned terms weighed (0 before version 4); the rest weigh 0 */
    int16_t term_weights[WEIGHTS_TERMS];
    int king_rows;         /* rows of the king windows (0 before version 5) */
    int16_t *king_tables;  /* every king window's table, 5^(2 king_rows) weights each */
    size_t king_count;     /* weights in king_tables */
} Weights;

/* Windows of `rows` rows on r's board, 0 for rows outside 1..4. */
int windows_count(const Rules *r, int rows);
/* Patterns of a window of `rows` rows: 3^(2 rows); of a king window: 5^(2 rows). */
int pattern_count(int rows);
int king_pattern_count(int rows);

/* Read the weights file at path for r's board and the rules key `key` (r's, as
 * damiera.engine.patterns.rules_key names it). Returns WEIGHTS_OK with out filled (free
 * out->tables and out->king_tables), WEIGHTS_BAD with a one-line message in err (starting
 * with the path) when the path is not a regular file (a FIFO or a device is refused without
 * waiting on it), the file is not a weights file of this board, a version 3-5 file names
 * other rules than `key` or its weights do not match its checksum, a version 4 or 5 file
 * weighs more terms than this build knows, or WEIGHTS_UNREADABLE with errno set when it
 * cannot be read. */
int weights_read(const Rules *r, const char *path, const char *key, Weights *out, char *err,
                 size_t errlen);

#endif
