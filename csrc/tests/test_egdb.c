/* The endgame database's files (egdb_file.h) in the C core alone: every class of a 3-piece
 * database written and read back byte for byte, and a file with one byte changed, a file of
 * other rules and a file of another class refused with their reasons, the class left
 * unloaded. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boundary.h"
#include "egdb_file.h"

#include "check.h"

/* American checkers' capture rules (RULES.md section 2), or Russian's with flying = 1. */
static void rules_8x8(Rules *r, int flying)
{
    memset(r, 0, sizeof *r);
    r->size = 8;
    r->flying = flying;
    r->men_back = flying;
    r->men_take_kings = 1;
    r->promotion = flying ? PROMO_CONTINUE : PROMO_STOP;
    r->mandatory = 1;
    r->man_rows = 3;
    r->draw_plies = 80;
    rules_init(r);
}

/* The boards a database is asked for beside 8x8 (boundary.h; 8x8 in test_core.c): 10x10 with
 * 2 to EGDB_MAX_PIECES_10X10 pieces; not 12x12, nor a board whose 64 squares all play. */
static void test_requests(void)
{
    Rules r10 = {0}, r12 = {0}, all64 = {0};
    r10.size = 10;
    r12.size = 12;
    all64.size = 8;
    all64.all_squares = 1;
    CHECK(!egdb_request_check(&r10, 2) && !egdb_request_check(&r10, EGDB_MAX_PIECES_10X10) &&
              egdb_request_check(&r10, EGDB_MAX_PIECES_10X10 + 1) &&
              egdb_request_check(&r12, 2) && egdb_request_check(&all64, 2),
          "egdb: the requests accepted are not 10x10's 2 to %d pieces, or 12x12 or a board of "
          "64 playing squares is",
          EGDB_MAX_PIECES_10X10);
}

/* An EgdbStop that counts its calls and stops the solve at the first. */
static int stop_at_once(void *ctx)
{
    return ++*(int *)ctx >= 1;
}

/* A class's solve stops when its stop says so (EGDB_STOPPED, the class left unsolved, nothing
 * else touched) and solves whole afterwards: the values of db, built without a stop. */
static void test_stop(const Rules *r, const Egdb *db)
{
    Egdb *part = egdb_new(r, 3);
    int calls = 0, stopped = 0, same = part != NULL;
    for (int k = 0; part && k < part->nclasses; k++) {
        EgdbClass *c = egdb_class_at(part, k);
        if (!stopped && c->size >= EGDB_STOP_EVERY) {
            uint64_t before = part->positions;
            stopped = egdb_solve_class(part, k, stop_at_once, &calls) == EGDB_STOPPED &&
                      calls == 1 && !c->val && part->positions == before;
        }
        same &= egdb_solve_class(part, k, NULL, NULL) == 0 &&
                memcmp(c->val, egdb_class_at((Egdb *)db, k)->val, c->size) == 0;
    }
    CHECK(stopped && same && part->positions == db->positions,
          "egdb: a stopped solve did not stop at once, or the class did not solve after it");
    egdb_free(part);
}

static void path_of(char *out, size_t len, const char *dir, const int *n)
{
    snprintf(out, len, "%s/%d%d%d%d.egdb", dir, n[0], n[1], n[2], n[3]);
}

void test_egdb(void)
{
    char dir[] = "/tmp/damiera-egdb-test-XXXXXX", path[128], other[128], err[256] = "";
    Rules am, ru;
    rules_8x8(&am, 0);
    rules_8x8(&ru, 1);
    Egdb *db = egdb_build(&am, 3), *back = egdb_new(&am, 3), *russian = egdb_new(&ru, 3);
    if (!mkdtemp(dir) || !db || !back || !russian) {
        CHECK(0, "egdb: no temporary folder or out of memory");
        goto out;
    }
    int same = 1;
    for (int k = 0; k < db->nclasses; k++) {
        path_of(path, sizeof path, dir, db->order[k]);
        const EgdbClass *c = egdb_class_at(db, k), *b = egdb_class_at(back, k);
        same &= egdb_class_save(db, k, path, err, sizeof err) == EGDB_FILE_OK &&
                egdb_class_load(back, k, path, err, sizeof err) == EGDB_FILE_OK &&
                memcmp(c->val, b->val, c->size) == 0;
    }
    CHECK(same && back->positions == db->positions && back->positions == 399040 &&
              back->max_distance == 61,
          "egdb: a 3-piece database read back differs (%s)", err);

    int k = db->nclasses - 1;
    path_of(path, sizeof path, dir, db->order[k]);
    CHECK(egdb_class_load(russian, k, path, err, sizeof err) == EGDB_FILE_BAD &&
              strstr(err, "made for other rules") && !egdb_class_at(russian, k)->val,
          "egdb: a file of other rules was not refused (%s)", err);
    path_of(other, sizeof other, dir, db->order[k - 1]);
    Egdb *fresh = egdb_new(&am, 3);
    CHECK(fresh && egdb_class_load(fresh, k, other, err, sizeof err) == EGDB_FILE_BAD &&
              strstr(err, "holds class") && !egdb_class_at(fresh, k)->val,
          "egdb: a file of another class was not refused (%s)", err);
    FILE *f = fopen(path, "r+b");
    int flipped = 0;
    if (f) {
        int byte = fseek(f, EGDB_HEADER_LEN + 10, SEEK_SET) == 0 ? fgetc(f) : EOF;
        flipped = byte != EOF && fseek(f, EGDB_HEADER_LEN + 10, SEEK_SET) == 0 &&
                  fputc(byte ^ 1, f) != EOF;
        flipped &= fclose(f) == 0;
    }
    CHECK(flipped && fresh && egdb_class_load(fresh, k, path, err, sizeof err) == EGDB_FILE_BAD &&
              strstr(err, "checksum") && !egdb_class_at(fresh, k)->val && fresh->positions == 0,
          "egdb: a damaged file was not refused (%s)", err);
    egdb_free(fresh);
    for (int j = 0; j < db->nclasses; j++) {
        path_of(path, sizeof path, dir, db->order[j]);
        remove(path);
    }
    rmdir(dir);
    test_stop(&am, db);
    test_requests();
    printf("egdb: files written, read back and refused when wrong; a solve stopped\n");
out:
    egdb_free(db);
    egdb_free(back);
    egdb_free(russian);
}
