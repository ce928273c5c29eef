/* idmap.h — a small map from nonzero 64-bit ids to pointers (open addressing with linear
 * probing and backward-shift deletion), for connections and games. */
#ifndef RS_IDMAP_H
#define RS_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rs_idmap_entry {
    uint64_t key; /* 0: empty */
    void *value;
} rs_idmap_entry;

typedef struct rs_idmap {
    rs_idmap_entry *slots;
    size_t cap, count;
} rs_idmap;

/* Insert or replace; false when out of memory. */
bool rs_idmap_put(rs_idmap *m, uint64_t key, void *value);
void *rs_idmap_get(const rs_idmap *m, uint64_t key);
void rs_idmap_del(rs_idmap *m, uint64_t key);
void rs_idmap_free(rs_idmap *m);

#endif
