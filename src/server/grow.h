/* grow.h — the one way the server's arrays grow: room for one more item, doubling the
 * capacity when it is full. */
#ifndef RS_GROW_H
#define RS_GROW_H

#include <stdbool.h>
#include <stddef.h>

/* Room for one more item in the malloc'ed array *items_ptr (a pointer to the array pointer)
 * holding `count` of *cap items of `item_size` bytes: when full, the capacity doubles (or
 * starts at `first`). False when out of memory, the array unchanged. */
bool rs_grow(void *items_ptr, size_t *cap, size_t count, size_t item_size, size_t first);

/* rs_grow for an array `items` (any pointer type) with its count and capacity fields. */
#define RS_GROW(items, count, cap, first)                                                          \
    rs_grow(&(items), &(cap), (count), sizeof *(items), (first))

#endif
