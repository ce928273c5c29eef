/* grow.c — room for one more item in a growing array (see grow.h). */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool rs_grow(void *items_ptr, size_t *cap, size_t count, size_t item_size, size_t first)
{
    if (count < *cap)
        return true;
    const size_t more = *cap ? *cap * 2 : first;
    if (more < *cap || more > SIZE_MAX / item_size)
        return false;
    void *items;
    memcpy(&items, items_ptr, sizeof items); /* the caller's array pointer, of any type */
    void *grown = realloc(items, more * item_size);
    if (!grown)
        return false;
    memcpy(items_ptr, &grown, sizeof grown);
    *cap = more;
    return true;
}
