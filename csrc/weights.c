/* Windows of a board and the weights file reader (weights.h). */
#include "weights.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "regular_file.h"

#define MAGIC "damiera-patterns"

int windows_count(const Rules *r, int rows)
{
    if (rows < 1 || rows > 4 || r->all_squares) /* windows of dark squares only */
        return 0;
    return (r->size - rows + 1) * (r->half - 1);
}

/* Patterns of a window of `rows` rows whose squares have `states` states. */
static int patterns_of(int rows, int states)
{
    int n = 1;
    for (int i = 0; i < 2 * rows; i++)
        n *= states;
    return n;
}

int pattern_count(int rows) { return patterns_of(rows, 3); }

int king_pattern_count(int rows) { return patterns_of(rows, 5); }

/* The window that w becomes under the half turn (rows and files reversed). */
static int partner(const Rules *r, int rows, int w)
{
    int per_row = r->half - 1, r0 = w / per_row, j = w % per_row;
    return (r->size - rows - r0) * per_row + (per_row - 1 - j);
}

/* The pattern the partner window shows when w shows p (states 3: men; 5: men and kings):
 * digits reversed, colours swapped. */
static int mirror(int rows, int states, int p)
{
    static const int swapped[5] = {0, 2, 1, 4, 3};
    int digits = 2 * rows, q = 0;
    for (int k = 0; k < digits; k++) {
        int state = p % states, weight = 1;
        p /= states;
        for (int i = 0; i < digits - 1 - k; i++)
            weight *= states;
        q += swapped[state] * weight;
    }
    return q;
}

/* The canonical windows' tables of one set, read from body at *at (16-bit little-endian
 * weights), into every window's table of `tables` (the partners' negated and mirrored).
 * Returns NULL, or what is wrong with window *bad's table. */
static const char *expand(const Rules *r, int rows, int states, const unsigned char *body,
                          size_t *at, int16_t *tables, int *bad)
{
    int windows = windows_count(r, rows), size = patterns_of(rows, states);
    int *mirrored = malloc((size_t)size * sizeof *mirrored);
    if (!mirrored)
        return "could not be read: out of memory";
    for (int p = 0; p < size; p++)
        mirrored[p] = mirror(rows, states, p);
    const char *failure = NULL;
    for (int w = 0; w < windows && !failure; w++) {
        int other = partner(r, rows, w);
        if (w > other)
            continue;
        int16_t *t = tables + (size_t)w * size;
        for (int p = 0; p < size; p++, (*at)++)
            t[p] = (int16_t)(uint16_t)(body[2 * *at] | body[2 * *at + 1] << 8);
        for (int p = 0; p < size && !failure; p++) {
            int negated = -(int)t[mirrored[p]];
            if (other != w) {
                if (negated > INT16_MAX)
                    failure = "holds -32768, whose opposite does not fit 16 bits";
                tables[(size_t)other * size + p] = (int16_t)negated;
            } else if (t[p] != negated) {
                failure = "is its own mirror image, its";
            }
        }
        *bad = w;
    }
    free(mirrored);
    return failure;
}

/* The whole file into *data (at most WEIGHTS_MAX_BYTES + 1 bytes are read): 0, -1 with errno
 * set when it cannot be read, or -2 with a message in err when the path is not a regular file
 * (opened without blocking, so a FIFO with no writer is refused rather than waited on). */
static int read_all(const char *path, unsigned char **data, size_t *len, char *err,
                    size_t errlen)
{
    const char *kind;
    FILE *f = open_regular(path, &kind);
    if (!f && kind) {
        snprintf(err, errlen, "%s: %s, not a regular file: not a weights file", path, kind);
        return -2;
    }
    if (!f)
        return -1;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0 || n > WEIGHTS_MAX_BYTES)
            break;
        if (n == cap) {
            unsigned char *more = realloc(buf, cap * 2);
            if (!more) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
            cap *= 2;
        }
    }
    int failed = !buf || ferror(f);
    int saved = buf ? errno : ENOMEM;
    fclose(f);
    if (failed) {
        free(buf);
        errno = saved ? saved : EIO;
        return -1;
    }
    *data = buf;
    *len = n;
    return 0;
}

/* Whitespace as Python's str.split() sees it in ASCII text. */
static int space(unsigned char c)
{
    return c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31);
}

static int token_is(const unsigned char *t, size_t n, const char *want)
{
    return n == strlen(want) && memcmp(t, want, n) == 0;
}

/* Up to 40 of the n bytes at data as a Python bytes literal, for a message (control bytes and
 * bytes above 126 escaped), followed by "... (first 40 bytes)" when it is cut. out holds at
 * least SHOWN_CAP characters. */
#define SHOWN_CAP 200
static void shown(const unsigned char *data, size_t n, char *out, size_t cap)
{
    size_t o = 0;
    o += (size_t)snprintf(out + o, cap - o, "b'");
    for (size_t i = 0; i < n && i < 40 && o + 6 < cap; i++) {
        unsigned char c = data[i];
        if (c == '\\' || c == '\'')
            o += (size_t)snprintf(out + o, cap - o, "\\%c", c);
        else if (c >= 32 && c < 127)
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, cap - o, "\\x%02x", c);
    }
    snprintf(out + o, cap - o, n > 40 ? "'... (first 40 bytes)" : "'");
}

/* A header word (a version 3 file's rules key, the window count) as a message shows it: itself
 * when it is plain (letters, digits, '_', '-', up to 120 characters), else as bytes. */
static void word_shown(const unsigned char *t, size_t n, char *out, size_t cap)
{
    int plain = n > 0 && n <= 120;
    for (size_t i = 0; plain && i < n; i++)
        plain = (t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z') ||
                (t[i] >= '0' && t[i] <= '9') || t[i] == '_' || t[i] == '-';
    if (plain)
        snprintf(out, cap, "%.*s", (int)n, (const char *)t);
    else
        shown(t, n, out, cap);
}

/* The CRC-32 (zlib's) of n bytes, over any length (zlib's length is an unsigned int). */
static unsigned long crc_of(const unsigned char *p, size_t n)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    while (n > 0) {
        uInt chunk = n > (1u << 30) ? 1u << 30 : (uInt)n;
        crc = crc32(crc, p, chunk);
        p += chunk;
        n -= chunk;
    }
    return (unsigned long)crc;
}

/* The 8 lowercase hex digits of a version 3 header's checksum, or -1 for anything else. */
static long long crc_word(const unsigned char *t, size_t n)
{
    if (n != 8)
        return -1;
    long long v = 0;
    for (size_t i = 0; i < n; i++) {
        int d = t[i] >= '0' && t[i] <= '9'   ? t[i] - '0'
                : t[i] >= 'a' && t[i] <= 'f' ? t[i] - 'a' + 10
                                             : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

int weights_read(const Rules *r, const char *path, const char *key, Weights *out, char *err,
                 size_t errlen)
{
    unsigned char *data = NULL;
    size_t len = 0;
    memset(out, 0, sizeof *out);
    int got = read_all(path, &data, &len, err, errlen);
    if (got < 0)
        return got == -2 ? WEIGHTS_BAD : WEIGHTS_UNREADABLE;
    if (len > WEIGHTS_MAX_BYTES) {
        snprintf(err, errlen, "%s: more than %d bytes: not a weights file", path,
                 WEIGHTS_MAX_BYTES);
        free(data);
        return WEIGHTS_BAD;
    }
    const unsigned char *nl = memchr(data, '\n', len);
    size_t head = nl ? (size_t)(nl - data) : 0;
    /* The header's words: the first ten kept, all counted. */
    const unsigned char *word[10] = {0};
    size_t wlen[10] = {0}, words = 0;
    for (size_t i = 0; nl && i < head;) {
        while (i < head && space(data[i]))
            i++;
        if (i == head)
            break;
        size_t s = i;
        while (i < head && !space(data[i]))
            i++;
        if (words < 10) {
            word[words] = data + s;
            wlen[words] = i - s;
        }
        words++;
    }
    int magic = words >= 2 && token_is(word[0], wlen[0], MAGIC);
    int v1 = magic && token_is(word[1], wlen[1], "1") && words == 4;
    int v2 = magic && token_is(word[1], wlen[1], "2") && words == 5 &&
             token_is(word[4], wlen[4], "2");
    int phases_word = words >= 5 && (token_is(word[4], wlen[4], "1") ||
                                     token_is(word[4], wlen[4], "2"));
    int v3 = magic && token_is(word[1], wlen[1], "3") && words == 7 && phases_word;
    int v4 = magic && token_is(word[1], wlen[1], "4") && words == 8 && phases_word;
    int v5 = magic && token_is(word[1], wlen[1], "5") && words == 10 && phases_word;
    /* Versions 3-5 name their rules and checksum in their last two words; version 4 counts
     * its learned terms before them, version 5 its terms and its king windows. */
    int key_at = v5 ? 8 : v4 ? 6 : 5, crc_at = key_at + 1, checked = v3 || v4 || v5;
    if (checked && crc_word(word[crc_at], wlen[crc_at]) < 0) {
        char theirs[SHOWN_CAP];
        shown(word[crc_at], wlen[crc_at], theirs, sizeof theirs);
        snprintf(err, errlen,
                 "%s: bad checksum word in the header (%s, expected 8 lowercase hex digits, the "
                 "weights' CRC-32): not a patterns file", path, theirs);
        free(data);
        return WEIGHTS_BAD;
    }
    size_t magic_len = sizeof MAGIC - 1;
    if (!nl && len > magic_len && !memcmp(data, MAGIC, magic_len) && space(data[magic_len])) {
        /* A header that starts right and never ends: the file was cut inside its first line. */
        snprintf(err, errlen, "%s: the header line has no end (no newline in the file's %zu "
                 "bytes): not a patterns file, or one cut short inside its header", path, len);
        free(data);
        return WEIGHTS_BAD;
    }
    /* A known version whose header is out of shape: say which word is wrong. */
    int version = magic && wlen[1] == 1 && word[1][0] >= '1' && word[1][0] <= '5'
                      ? word[1][0] - '0' : 0;
    if (version && !(v1 || v2 || checked)) {
        static const char *const shape[6] = {
            "", MAGIC " 1 ROWS WINDOWS", MAGIC " 2 ROWS WINDOWS 2",
            MAGIC " 3 ROWS WINDOWS PHASES RULES CRC32",
            MAGIC " 4 ROWS WINDOWS PHASES TERMS RULES CRC32",
            MAGIC " 5 ROWS WINDOWS PHASES TERMS KROWS KWINDOWS RULES CRC32"};
        static const size_t count[6] = {0, 4, 5, 7, 8, 10};
        if (words != count[version])
            snprintf(err, errlen, "%s: a version %d header of %zu words, expected %zu ('%s'): "
                     "not a patterns file", path, version, words, count[version],
                     shape[version]);
        else
            snprintf(err, errlen, "%s: the phases word of a version %d header must be %s: not "
                     "a patterns file", path, version, version == 2 ? "2" : "1 or 2");
        free(data);
        return WEIGHTS_BAD;
    }
    int rows = (v1 || v2 || checked) && wlen[2] == 1 && word[2][0] >= '1' && word[2][0] <= '4'
                   ? word[2][0] - '0' : 0;
    if (!rows) {
        char start[SHOWN_CAP];
        shown(data, nl && head < 40 ? head : len, start, sizeof start);
        snprintf(err, errlen,
                 "%s: not a patterns file with windows of 1-4 rows (starts %s, expected '" MAGIC
                 " 3 ROWS WINDOWS PHASES RULES CRC32', its version 4 with TERMS before RULES, "
                 "5 with TERMS KROWS KWINDOWS, or an older version 1 or 2)",
                 path, start);
        free(data);
        return WEIGHTS_BAD;
    }
    if (checked && !token_is(word[key_at], wlen[key_at], key)) {
        char theirs[SHOWN_CAP];
        word_shown(word[key_at], wlen[key_at], theirs, sizeof theirs);
        snprintf(err, errlen, "%s: weights trained for the rules %s, not for %s", path, theirs,
                 key);
        free(data);
        return WEIGHTS_BAD;
    }
    int terms = 0;
    if (v4 || v5) {
        /* 1..WEIGHTS_TERMS, written as a plain decimal number. */
        int plain = wlen[5] >= 1 && wlen[5] <= 3 && word[5][0] != '0';
        for (size_t i = 0; plain && i < wlen[5]; i++) {
            plain = word[5][i] >= '0' && word[5][i] <= '9';
            terms = terms * 10 + (word[5][i] - '0');
        }
        if (!plain || terms > WEIGHTS_TERMS) {
            char theirs[SHOWN_CAP];
            word_shown(word[5], wlen[5], theirs, sizeof theirs);
            snprintf(err, errlen, "%s: weights of %s learned terms, this engine knows 1 to %d "
                     "(%s)", path, theirs, WEIGHTS_TERMS,
                     plain ? "a file of a newer engine" : "not a count: a damaged file");
            free(data);
            return WEIGHTS_BAD;
        }
    }
    int phases = v1 || (checked && word[4][0] == '1') ? 1 : 2;
    int windows = windows_count(r, rows), size = pattern_count(rows);
    char expected[16];
    snprintf(expected, sizeof expected, "%d", windows);
    if (!token_is(word[3], wlen[3], expected)) {
        char theirs[SHOWN_CAP];
        word_shown(word[3], wlen[3], theirs, sizeof theirs);
        snprintf(err, errlen, "%s: %s windows do not fit this board (%d windows of %d rows)",
                 path, theirs, windows, rows);
        free(data);
        return WEIGHTS_BAD;
    }
    int king_rows = 0, king_windows = 0, king_size = 0, king_canonical = 0;
    if (v5) {
        king_rows = wlen[6] == 1 && word[6][0] >= '1' && word[6][0] <= '0' + WEIGHTS_KING_ROWS
                        ? word[6][0] - '0' : 0;
        if (!king_rows) {
            char theirs[SHOWN_CAP];
            word_shown(word[6], wlen[6], theirs, sizeof theirs);
            snprintf(err, errlen, "%s: king windows of %s rows, this engine reads 1 to %d",
                     path, theirs, WEIGHTS_KING_ROWS);
            free(data);
            return WEIGHTS_BAD;
        }
        king_windows = windows_count(r, king_rows);
        king_size = king_pattern_count(king_rows);
        snprintf(expected, sizeof expected, "%d", king_windows);
        if (!token_is(word[7], wlen[7], expected)) {
            char theirs[SHOWN_CAP];
            word_shown(word[7], wlen[7], theirs, sizeof theirs);
            snprintf(err, errlen, "%s: %s king windows do not fit this board (%d windows of %d "
                     "rows)", path, theirs, king_windows, king_rows);
            free(data);
            return WEIGHTS_BAD;
        }
        for (int w = 0; w < king_windows; w++)
            king_canonical += w <= partner(r, king_rows, w);
    }
    const unsigned char *body = nl + 1;
    size_t body_len = len - head - 1;
    int canonical = 0;
    for (int w = 0; w < windows; w++)
        canonical += w <= partner(r, rows, w);
    size_t per_phase = (size_t)canonical * (size_t)size;
    size_t expected_bytes = 2 * (size_t)phases * per_phase + 2 * (size_t)terms +
                            2 * (size_t)king_canonical * (size_t)king_size;
    if (body_len != expected_bytes) {
        size_t extra = body_len - expected_bytes;
        if (body_len > expected_bytes)
            snprintf(err, errlen, "%s: %zu byte%s after the weights (%zu weights of 2 bytes "
                     "expected): trailing data", path, extra, extra == 1 ? "" : "s",
                     expected_bytes / 2);
        else if (body_len % 2)
            snprintf(err, errlen, "%s: an odd number of bytes of weights (2 bytes each, %zu "
                     "weights expected): cut short", path, expected_bytes / 2);
        else
            snprintf(err, errlen, "%s: %zu weights, expected %zu: cut short", path,
                     body_len / 2, expected_bytes / 2);
        free(data);
        return WEIGHTS_BAD;
    }
    if (checked) {
        unsigned long crc = crc_of(body, body_len);
        if ((long long)crc != crc_word(word[crc_at], wlen[crc_at])) {
            snprintf(err, errlen, "%s: the weights' CRC-32 is %08lx, the header says %.8s: the "
                     "file is damaged", path, crc, (const char *)word[crc_at]);
            free(data);
            return WEIGHTS_BAD;
        }
    }
    size_t count = (size_t)phases * (size_t)windows * (size_t)size;
    size_t king_count = (size_t)king_windows * (size_t)king_size;
    int16_t *tables = malloc(count * sizeof *tables);
    int16_t *king_tables = king_count ? malloc(king_count * sizeof *king_tables) : NULL;
    if (!tables || (king_count && !king_tables)) {
        free(tables);
        free(king_tables);
        free(data);
        errno = ENOMEM;
        return WEIGHTS_UNREADABLE;
    }
    const char *failure = NULL, *which = "";
    int bad_window = 0;
    size_t at = 0;
    for (int phase = 0; phase < phases && !failure; phase++) {
        failure = expand(r, rows, 3, body, &at, tables + (size_t)phase * windows * size,
                         &bad_window);
        if (failure && phases == 2)
            which = phase ? " endgame" : " opening";
    }
    for (int t = 0; t < terms && !failure; t++, at++)
        out->term_weights[t] = (int16_t)(uint16_t)(body[2 * at] | body[2 * at + 1] << 8);
    if (king_count && !failure) {
        failure = expand(r, king_rows, 5, body, &at, king_tables, &bad_window);
        if (failure)
            which = " king";
    }
    free(data);
    if (failure) {
        if (failure[0] == 'i')
            snprintf(err, errlen, "%s: window %d %s%s table is not its negated mirror", path,
                     bad_window, failure, which);
        else
            snprintf(err, errlen, "%s: window %d%s %s", path, bad_window, which, failure);
        free(tables);
        free(king_tables);
        return WEIGHTS_BAD;
    }
    out->king_rows = king_rows;
    out->king_tables = king_tables;
    out->king_count = king_count;
    out->rows = rows;
    out->phases = phases;
    out->tables = tables;
    out->count = count;
    out->terms = terms;
    return WEIGHTS_OK;
}
