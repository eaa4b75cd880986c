/* The on-disk form of one solved class of an endgame database (egdb.h), one file per class:
 *
 *   header, 128 bytes, integers little-endian:
 *     0  magic "DAMIERA-EGDB\n\0\0\0"  16 bytes
 *    16  format version (EGDB_FILE_VERSION)  u32
 *    20  compression: 1 = zlib (RFC 1950) of the value bytes  u32
 *    24  the rules' key (egdb_rules_key), NUL-padded  EGDB_KEY_LEN bytes
 *    88  the class: white men, white kings, black men, black kings  4 x u8
 *    92  longest win of the class, plies  u32
 *    96  indices of the class (= value bytes once inflated)  u64
 *   104  possible positions (value bytes not 0)  u64
 *   112  length of the compressed payload  u64
 *   120  CRC-32 of the payload  u32
 *   124  CRC-32 of the header's first 124 bytes  u32
 *   payload: the class's value bytes (egdb.h) in index order, deflated.
 *
 * A file is refused, with a message saying why, when it is not such a file, has another
 * version, was made for other rules or another class, is cut short or longer, or its
 * checksums or contents do not match; the class is then left as it was.
 */
#ifndef DAMIERA_EGDB_FILE_H
#define DAMIERA_EGDB_FILE_H

#include <stddef.h>

#include "egdb.h"

#define EGDB_FILE_VERSION 1
#define EGDB_HEADER_LEN 128

/* egdb_class_save / egdb_class_load results. */
enum { EGDB_FILE_OK = 0, EGDB_FILE_BAD = -1, EGDB_FILE_IO = -2 };

/* Write the k-th class of db->order (solved) to path, through path + ".<pid>.tmp" (this
 * process's own, so that two builds of one folder never share one) renamed at the end, so a
 * file at path is always whole. Returns EGDB_FILE_OK, EGDB_FILE_IO with errno set, or
 * EGDB_FILE_BAD with a message in err (not solved, out of memory). */
int egdb_class_save(const Egdb *db, int k, const char *path, char *err, size_t errlen);

/* Read the k-th class of db->order from path and mark it ready. Returns EGDB_FILE_OK,
 * EGDB_FILE_IO with errno set (unreadable), or EGDB_FILE_BAD with the reason in err (also for
 * a path that is not a regular file: it is opened without blocking, so a FIFO with no writer
 * is refused at once rather than waited on). */
int egdb_class_load(Egdb *db, int k, const char *path, char *err, size_t errlen);

/* Check path's header against the k-th class of db->order without reading its values: the
 * file's kind, format, version, rules, class, header checksum and length (a file cut short or
 * too long), not the values' checksum. Returns EGDB_FILE_OK, EGDB_FILE_IO with errno set, or
 * EGDB_FILE_BAD with the reason in err, as egdb_class_load would for the same header. */
int egdb_class_check(const Egdb *db, int k, const char *path, char *err, size_t errlen);

#endif
