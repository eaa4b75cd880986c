/* Endgame database files (egdb_file.h): one class per file, its value bytes deflated by zlib
 * behind a header that names the format version, the rules and the class, with checksums. */
#define _POSIX_C_SOURCE 200809L /* getpid under -std=c11 */
#include "egdb_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "regular_file.h"

static const char MAGIC[16] = "DAMIERA-EGDB\n\0\0";

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* zlib's crc32 over any length (its length argument is an unsigned int). */
static uint32_t crc_of(const uint8_t *p, uint64_t len)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    while (len) {
        uInt chunk = len > (1u << 30) ? (1u << 30) : (uInt)len;
        crc = crc32(crc, p, chunk);
        p += chunk;
        len -= chunk;
    }
    return (uint32_t)crc;
}

static void header_of(const Egdb *db, const EgdbClass *c, const int n[4], uint64_t packed,
                      uint32_t crc, uint8_t *h)
{
    char key[EGDB_KEY_LEN] = {0};
    memset(h, 0, EGDB_HEADER_LEN);
    memcpy(h, MAGIC, sizeof MAGIC);
    put32(h + 16, EGDB_FILE_VERSION);
    put32(h + 20, 1);
    egdb_rules_key(db->r, key);
    memcpy(h + 24, key, EGDB_KEY_LEN);
    for (int j = 0; j < 4; j++)
        h[88 + j] = (uint8_t)n[j];
    put32(h + 92, (uint32_t)c->max_distance);
    put64(h + 96, c->size);
    put64(h + 104, c->positions);
    put64(h + 112, packed);
    put32(h + 120, crc);
    put32(h + 124, crc_of(h, 124));
}

/* Deflate len bytes of src into a new buffer (*out, *outlen). 0, or -1 out of memory. */
static int deflate_all(const uint8_t *src, uint64_t len, uint8_t **out, uint64_t *outlen)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit(&z, 6) != Z_OK)
        return -1;
    uint64_t cap = len / 8 + 4096, used = 0;
    uint8_t *buf = malloc(cap);
    int rc = Z_OK;
    uint64_t fed = 0;
    while (buf) {
        if (z.avail_in == 0 && fed < len) {
            uInt chunk = len - fed > (1u << 30) ? (1u << 30) : (uInt)(len - fed);
            z.next_in = (Bytef *)(src + fed);
            z.avail_in = chunk;
            fed += chunk;
        }
        if (used == cap) {
            uint8_t *more = realloc(buf, cap * 2);
            if (!more)
                break;
            buf = more;
            cap *= 2;
        }
        uint64_t room = cap - used;
        z.next_out = buf + used;
        z.avail_out = room > (1u << 30) ? (1u << 30) : (uInt)room;
        uInt before = z.avail_out;
        rc = deflate(&z, fed == len ? Z_FINISH : Z_NO_FLUSH);
        used += before - z.avail_out;
        if (rc == Z_STREAM_END) {
            deflateEnd(&z);
            *out = buf;
            *outlen = used;
            return 0;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            break;
    }
    deflateEnd(&z);
    free(buf);
    return -1;
}

int egdb_class_save(const Egdb *db, int k, const char *path, char *err, size_t errlen)
{
    const int *n = db->order[k];
    const EgdbClass *c = &db->cls[n[0]][n[1]][n[2]][n[3]];
    if (!c->val) {
        snprintf(err, errlen, "class %d%d%d%d is not solved", n[0], n[1], n[2], n[3]);
        return EGDB_FILE_BAD;
    }
    uint8_t *packed = NULL, h[EGDB_HEADER_LEN];
    uint64_t plen = 0;
    if (deflate_all(c->val, c->size, &packed, &plen) < 0) {
        snprintf(err, errlen, "out of memory compressing class %d%d%d%d", n[0], n[1], n[2],
                 n[3]);
        return EGDB_FILE_BAD;
    }
    header_of(db, c, n, plen, crc_of(packed, plen), h);
    /* Written whole under a name of this process's own, then renamed into place: two builds
     * of one folder never write the same temporary file, and a reader sees the whole file or
     * none. */
    size_t tlen = strlen(path) + 32;
    char *tmp = malloc(tlen);
    FILE *f = tmp ? (snprintf(tmp, tlen, "%s.%ld.tmp", path, (long)getpid()), fopen(tmp, "wb"))
                  : NULL;
    int ok = f && fwrite(h, 1, sizeof h, f) == sizeof h && fwrite(packed, 1, plen, f) == plen;
    int saved = errno;
    if (f && fclose(f) != 0 && ok) {
        ok = 0;
        saved = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = 0;
        saved = errno;
    }
    if (!ok && f)
        remove(tmp);
    free(tmp);
    free(packed);
    if (!ok) {
        errno = tmp ? saved : ENOMEM;
        return EGDB_FILE_IO;
    }
    return EGDB_FILE_OK;
}

/* Refuse with a message: EGDB_FILE_BAD. */
#define BAD(...) (snprintf(err, errlen, __VA_ARGS__), EGDB_FILE_BAD)

/* Check a header against the database's rules and class k: EGDB_FILE_OK, or EGDB_FILE_BAD
 * with the reason in err. */
static int check_header(const Egdb *db, int k, const uint8_t *h, uint64_t filelen, char *err,
                        size_t errlen)
{
    const int *n = db->order[k];
    const EgdbClass *c = &db->cls[n[0]][n[1]][n[2]][n[3]];
    if (filelen < EGDB_HEADER_LEN || memcmp(h, MAGIC, sizeof MAGIC) != 0)
        return BAD("not an endgame database file");
    if (get32(h + 124) != crc_of(h, 124))
        return BAD("damaged header (checksum mismatch)");
    if (get32(h + 16) != EGDB_FILE_VERSION)
        return BAD("format version %u, this program reads version %d", get32(h + 16),
                   EGDB_FILE_VERSION);
    if (get32(h + 20) != 1)
        return BAD("unknown compression %u", get32(h + 20));
    char key[EGDB_KEY_LEN], have[EGDB_KEY_LEN + 1];
    egdb_rules_key(db->r, key);
    memcpy(have, h + 24, EGDB_KEY_LEN);
    have[EGDB_KEY_LEN] = 0;
    if (strcmp(have, key) != 0)
        return BAD("made for other rules (%s), not these (%s)", have, key);
    if (memcmp((int[4]){h[88], h[89], h[90], h[91]}, n, 4 * sizeof(int)) != 0)
        return BAD("holds class %d%d%d%d, not %d%d%d%d", h[88], h[89], h[90], h[91], n[0], n[1],
                   n[2], n[3]);
    if (get64(h + 96) != c->size)
        return BAD("holds %llu indices, the class has %llu",
                   (unsigned long long)get64(h + 96), (unsigned long long)c->size);
    if (get32(h + 92) > EGDB_MAX_DISTANCE || get64(h + 104) > c->size)
        return BAD("damaged header (distance or count out of range)");
    uint64_t bound = c->size + c->size / 1000 + 64; /* above deflate's worst case */
    if (get64(h + 112) > bound)
        return BAD("damaged header (%llu bytes of data for %llu values)",
                   (unsigned long long)get64(h + 112), (unsigned long long)c->size);
    if (get64(h + 112) != filelen - EGDB_HEADER_LEN)
        return BAD("%s: %llu bytes of data, the header says %llu",
                   get64(h + 112) > filelen - EGDB_HEADER_LEN ? "cut short" : "too long",
                   (unsigned long long)(filelen - EGDB_HEADER_LEN),
                   (unsigned long long)get64(h + 112));
    return EGDB_FILE_OK;
}

/* Inflate exactly len bytes from src (slen bytes) into dst. 0, or -1 when the stream is bad,
 * shorter or longer. */
static int inflate_all(const uint8_t *src, uint64_t slen, uint8_t *dst, uint64_t len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return -1;
    uint64_t fed = 0, got = 0;
    int rc = Z_OK;
    while (rc == Z_OK) {
        if (z.avail_in == 0 && fed < slen) {
            uInt chunk = slen - fed > (1u << 30) ? (1u << 30) : (uInt)(slen - fed);
            z.next_in = (Bytef *)(src + fed);
            z.avail_in = chunk;
            fed += chunk;
        }
        uint64_t room = len - got;
        uint8_t spare;
        z.next_out = room ? dst + got : &spare; /* room 0: one byte more means too long */
        z.avail_out = room == 0 ? 1 : room > (1u << 30) ? (1u << 30) : (uInt)room;
        uInt before = z.avail_out;
        rc = inflate(&z, Z_NO_FLUSH);
        uInt made = before - z.avail_out;
        if (room == 0 && made)
            rc = Z_DATA_ERROR;
        got += room ? made : 0;
        if (rc == Z_BUF_ERROR && fed < slen)
            rc = Z_OK;
    }
    int ok = rc == Z_STREAM_END && got == len && z.avail_in == 0 && fed == slen;
    inflateEnd(&z);
    return ok ? 0 : -1;
}

/* Open path and read and check its header against class k: the file, positioned after the
 * header, in *out (EGDB_FILE_OK; the caller closes it), else EGDB_FILE_IO with errno set or
 * EGDB_FILE_BAD with the reason in err (the file closed). */
static int open_checked(const Egdb *db, int k, const char *path, uint8_t h[EGDB_HEADER_LEN],
                        FILE **out, char *err, size_t errlen)
{
    const char *kind;
    FILE *f = open_regular(path, &kind); /* a FIFO is refused, not waited on */
    *out = NULL;
    if (!f && kind)
        return BAD("%s, not a regular file: not an endgame database file", kind);
    if (!f)
        return EGDB_FILE_IO;
    int rc = EGDB_FILE_IO;
    long end = -1;
    if (fseek(f, 0, SEEK_END) != 0 || (end = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        goto out;
    size_t got = fread(h, 1, EGDB_HEADER_LEN, f);
    if (ferror(f))
        goto out;
    if (got < EGDB_HEADER_LEN)
        rc = BAD("not an endgame database file (%zu bytes)", got);
    else
        rc = check_header(db, k, h, (uint64_t)end, err, errlen);
out:
    if (rc == EGDB_FILE_IO && !errno)
        errno = EIO;
    if (rc == EGDB_FILE_OK)
        *out = f;
    else
        fclose(f);
    return rc;
}

int egdb_class_check(const Egdb *db, int k, const char *path, char *err, size_t errlen)
{
    uint8_t h[EGDB_HEADER_LEN];
    FILE *f;
    int rc = open_checked(db, k, path, h, &f, err, errlen);
    if (f)
        fclose(f);
    return rc;
}

int egdb_class_load(Egdb *db, int k, const char *path, char *err, size_t errlen)
{
    const int *n = db->order[k];
    EgdbClass *c = &db->cls[n[0]][n[1]][n[2]][n[3]];
    uint8_t h[EGDB_HEADER_LEN], *packed = NULL, *val = NULL;
    FILE *f;
    int rc = open_checked(db, k, path, h, &f, err, errlen);
    if (rc != EGDB_FILE_OK)
        return rc;
    uint64_t plen = get64(h + 112);
    packed = malloc(plen ? plen : 1);
    val = malloc(c->size);
    if (!packed || !val) {
        rc = BAD("out of memory reading class %d%d%d%d", n[0], n[1], n[2], n[3]);
        goto out;
    }
    rc = EGDB_FILE_IO;
    if (fread(packed, 1, plen, f) != plen)
        goto out;
    if (crc_of(packed, plen) != get32(h + 120)) {
        rc = BAD("damaged data (checksum mismatch)");
        goto out;
    }
    if (inflate_all(packed, plen, val, c->size) < 0) {
        rc = BAD("damaged data (the compressed stream does not inflate to the class)");
        goto out;
    }
    uint64_t positions = 0;
    int top = 0;
    for (uint64_t i = 0; i < c->size; i++)
        if (val[i]) {
            positions++;
            if (!(val[i] & 1) && val[i] - 1 > top)
                top = val[i] - 1;
        }
    if (positions != get64(h + 104) || (uint32_t)top != get32(h + 92)) {
        rc = BAD("damaged data (its values disagree with the header)");
        goto out;
    }
    free(c->val);
    c->val = val;
    val = NULL;
    c->positions = positions;
    c->max_distance = top;
    egdb_class_ready(db, c);
    rc = EGDB_FILE_OK;
out:
    if (rc == EGDB_FILE_IO && !errno)
        errno = EIO;
    fclose(f);
    free(packed);
    free(val);
    return rc;
}
